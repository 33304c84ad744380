/**
 * The reply cap (issue 19): the one body reader every provider path uses stops at maxResponseBytes, cancels the
 * body (the connection), and fails with LLM_RESPONSE_TOO_LARGE; a declared Content-Length past the cap is refused
 * before a byte is read. Under the cap the text comes through whole, multi-byte characters split across chunks intact.
 */
import { describe, expect, it } from 'vitest';
import { readCappedText } from '../../../src/core/llm/bodyCap.js';

/** A Response whose body yields `chunks`, noting whether it was cancelled. */
function response(chunks: Uint8Array[], headers: Record<string, string> = {}): { res: Response; cancelled: () => boolean; pulled: () => number } {
  let cancelled = false;
  let pulled = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      const next = chunks[pulled];
      pulled += 1;
      if (next === undefined) controller.close();
      else controller.enqueue(next);
    },
    cancel() {
      cancelled = true;
    },
  });
  return { res: new Response(body, { headers }), cancelled: () => cancelled, pulled: () => pulled };
}

describe('readCappedText', () => {
  it('returns the whole text under the cap, with a character split across chunks intact', async () => {
    const bytes = Buffer.from('héllo wörld ✓', 'utf8');
    const { res } = response([bytes.subarray(0, 2), bytes.subarray(2, 9), bytes.subarray(9)]);
    expect(await readCappedText(res, 1024, 'stub')).toBe('héllo wörld ✓');
  });

  it('past the cap: LLM_RESPONSE_TOO_LARGE naming the cap and the fix, the body cancelled, nothing more read', async () => {
    const mb = new Uint8Array(1024 * 1024).fill(0x78);
    const { res, cancelled, pulled } = response(Array.from({ length: 64 }, () => mb));
    const error = await readCappedText(res, 3 * 1024 * 1024, 'open_ai_compat').catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'LLM_RESPONSE_TOO_LARGE', retryable: false, message: expect.stringMatching(/open_ai_compat sent more than 3145728 bytes/) });
    expect((error as { fix?: string }).fix).toMatch(/maxResponseBytes/);
    expect(cancelled()).toBe(true);
    expect(pulled()).toBeLessThan(10);
  });

  it('a declared Content-Length past the cap is refused before reading', async () => {
    const { res, pulled } = response([new Uint8Array(10)], { 'content-length': String(500 * 1024 * 1024) });
    await expect(readCappedText(res, 8 * 1024 * 1024, 'anthropic')).rejects.toMatchObject({ code: 'LLM_RESPONSE_TOO_LARGE' });
    expect(pulled()).toBe(0);
  });
});
