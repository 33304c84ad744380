/**
 * The one cap on how much of a model's HTTP answer is read, shared by every path that reads a provider body (a whole
 * JSON reply, an error body, a server-sent event stream). Without it a 64 MB reply cost 1.2 GB of memory and a
 * 200 MB one 3 GB, then went to stdout and the session store whole. Past the cap the connection is cancelled and
 * the call fails with LLM_RESPONSE_TOO_LARGE (not retried: the same question would bring the same flood).
 */
import { responseTooLarge } from './llmError.js';

/** Default cap on one reply (bytes on the wire): far above any real answer, far below a flood. */
export const DEFAULT_MAX_RESPONSE_BYTES = 8 * 1024 * 1024;

/**
 * Passes a body through until `cap` bytes, then cancels it and errors with LLM_RESPONSE_TOO_LARGE. A declared
 * Content-Length past the cap is refused before a byte is read.
 */
export function capBody(res: Response, cap: number, backend: string): ReadableStream<Uint8Array> | null {
  const declared = Number(res.headers.get('content-length') ?? Number.NaN);
  if (Number.isFinite(declared) && declared > cap) {
    void res.body?.cancel().catch(() => undefined);
    throw responseTooLarge(backend, cap, 0);
  }
  if (res.body === null) return null;
  let seen = 0;
  return res.body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        seen += chunk.byteLength;
        if (seen > cap) {
          controller.error(responseTooLarge(backend, cap, seen));
          return;
        }
        controller.enqueue(chunk);
      },
    }),
  );
}

/** The whole body as text, at most `cap` bytes (LLM_RESPONSE_TOO_LARGE past it). */
export async function readCappedText(res: Response, cap: number, backend: string): Promise<string> {
  const body = capBody(res, cap, backend);
  if (body === null) return '';
  const decoder = new TextDecoder();
  const parts: string[] = [];
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      parts.push(decoder.decode(value, { stream: true }));
    }
  } catch (error) {
    await reader.cancel().catch(() => undefined);
    throw error;
  }
  parts.push(decoder.decode());
  return parts.join('');
}
