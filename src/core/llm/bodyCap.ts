/**
 * The one cap on how much of a model's HTTP answer is read, shared by every path that reads a provider body (a whole
 * JSON reply, an error body, a server-sent event stream). Without it a 64 MB reply cost 1.2 GB of memory and a
 * 200 MB one 3 GB, then went to stdout and the session store whole. Past the cap the connection is closed and the
 * call fails with LLM_RESPONSE_TOO_LARGE (not retried: the same question would bring the same flood).
 */
import { responseTooLarge } from './llmError.js';

/** Default cap on one reply (bytes on the wire): far above any real answer, far below a flood. */
export const DEFAULT_MAX_RESPONSE_BYTES = 8 * 1024 * 1024;

/** Counts the bytes of one answer against its cap; the client closes the connection when a check throws. */
export class ByteCap {
  private seen = 0;

  constructor(
    private readonly cap: number,
    private readonly backend: string,
  ) {}

  /** A declared Content-Length past the cap is refused before a byte is read. */
  declared(contentLength: string | undefined): void {
    const declared = Number(contentLength ?? Number.NaN);
    if (Number.isFinite(declared) && declared > this.cap) throw responseTooLarge(this.backend, this.cap, 0);
  }

  /** Adds a chunk's bytes; throws LLM_RESPONSE_TOO_LARGE once the total passes the cap. */
  add(bytes: number): void {
    this.seen += bytes;
    if (this.seen > this.cap) throw responseTooLarge(this.backend, this.cap, this.seen);
  }
}
