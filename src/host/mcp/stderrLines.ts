/**
 * Splits a child's stderr byte stream into lines with a hard cap per line, so a child that never prints a
 * newline (a progress bar, a binary dump) cannot grow the parent's memory: at the cap the bytes so far are
 * emitted as one line and the rest continues as the next. Pure and synchronous; the stream glue lives in
 * the connection code.
 */

/** Cap of one emitted line, in bytes of UTF-8 (64 KiB, SPEC §6.5). */
export const CHILD_LINE_MAX_BYTES = 64 * 1024;

const LF = 0x0a;
const CR = 0x0d;

/**
 * Returns how many bytes of `buf` (at most `max`) end on a UTF-8 character boundary, so a cut never splits a
 * character. Falls back to `max` when no boundary is found in the last 3 bytes (the input was not UTF-8).
 */
export function utf8CutPoint(buf: Uint8Array, max: number): number {
  if (buf.length <= max) return buf.length;
  for (let cut = max; cut > max - 4 && cut > 0; cut -= 1) {
    const byte = buf[cut];
    // A byte that is not a continuation byte (10xxxxxx) starts a character: cutting before it is safe.
    if (byte === undefined || (byte & 0xc0) !== 0x80) return cut;
  }
  return max;
}

/** A line splitter holding at most `maxBytes` of an unfinished line. */
export class LineSplitter {
  private pending: Buffer = Buffer.alloc(0);
  /** The last emit was a cut at the cap: a newline right after it ends that line, not a new empty one. */
  private justCut = false;

  /** `emit` receives each complete (or cut) line without its `\n` / `\r\n`; `maxBytes` bounds one line. */
  constructor(
    private readonly emit: (line: string) => void,
    private readonly maxBytes: number = CHILD_LINE_MAX_BYTES,
  ) {
    if (!Number.isInteger(maxBytes) || maxBytes < 4) throw new RangeError(`maxBytes must be an integer ≥ 4, got ${maxBytes}`);
  }

  /** Bytes currently held for an unfinished line (never above maxBytes). */
  get heldBytes(): number {
    return this.pending.length;
  }

  /** Feeds one chunk; emits every line it completes and every cap-sized piece of an over-long line. */
  push(chunk: Uint8Array | string): void {
    let data: Buffer = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    while (data.length > 0) {
      const nl = data.indexOf(LF);
      const part = nl === -1 ? data : data.subarray(0, nl);
      this.append(part);
      if (nl === -1) return;
      if (this.justCut && this.pending.length === 0) this.justCut = false;
      else this.emitPending(true);
      data = data.subarray(nl + 1);
    }
  }

  /** Emits what is left of an unfinished line (the stream ended). */
  flush(): void {
    if (this.pending.length > 0) this.emitPending(true);
  }

  /**
   * Appends bytes of the current line; as soon as the line reaches the cap it is emitted (cut on a character
   * boundary), so a child that stops writing right at the cap is not left waiting in memory.
   */
  private append(part: Buffer): void {
    if (part.length === 0) return;
    this.justCut = false;
    let rest = part;
    while (this.pending.length + rest.length >= this.maxBytes) {
      const joined = Buffer.concat([this.pending, rest]);
      const cut = utf8CutPoint(joined, this.maxBytes);
      this.pending = joined.subarray(0, cut);
      this.emitPending(false);
      this.justCut = true;
      rest = joined.subarray(cut);
      if (rest.length === 0) return;
      this.justCut = false;
    }
    // Copy, so the held bytes never pin a large chunk from the stream.
    this.pending = this.pending.length === 0 ? Buffer.from(rest) : Buffer.concat([this.pending, rest]);
  }

  private emitPending(endOfLine: boolean): void {
    let line = this.pending;
    if (endOfLine && line.length > 0 && line[line.length - 1] === CR) line = line.subarray(0, line.length - 1);
    this.pending = Buffer.alloc(0);
    this.emit(line.toString('utf8'));
  }
}
