/**
 * The reply cap (issue 19) as a counter: the model client (httpClient.int.test.ts) checks every answer's declared
 * length and every chunk against it; past the cap it throws LLM_RESPONSE_TOO_LARGE naming the cap, what was read and
 * the fix.
 */
import { describe, expect, it } from 'vitest';
import { ByteCap } from '../../../src/core/llm/bodyCap.js';

describe('ByteCap', () => {
  it('lets chunks through up to the cap, exactly at it included', () => {
    const cap = new ByteCap(1024, 'stub');
    cap.declared('1024');
    cap.declared(undefined);
    cap.add(1000);
    expect(() => cap.add(24)).not.toThrow();
  });

  it('past the cap: LLM_RESPONSE_TOO_LARGE naming the cap, the bytes read and the fix', () => {
    const cap = new ByteCap(3 * 1024 * 1024, 'open_ai_compat');
    cap.add(3 * 1024 * 1024);
    let error: unknown;
    try {
      cap.add(1);
    } catch (e) {
      error = e;
    }
    expect(error).toMatchObject({ code: 'LLM_RESPONSE_TOO_LARGE', retryable: false, message: expect.stringMatching(/open_ai_compat sent more than 3145728 bytes \(3145729 read/) });
    expect((error as { fix?: string }).fix).toMatch(/maxResponseBytes/);
  });

  it('a declared Content-Length past the cap is refused before reading', () => {
    expect(() => new ByteCap(8 * 1024 * 1024, 'anthropic').declared(String(500 * 1024 * 1024))).toThrow(/more than 8388608 bytes \(0 read/);
  });
});
