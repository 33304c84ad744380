/**
 * The in-memory message log: a ring of the last 5000 recorded messages (reference: log_capacity), and at most
 * 32 MiB of message text (issue 19: 60 replies of 4 MB kept `serve` at 650 MB for the next 1,600 requests).
 * Whichever limit is reached first drops the oldest messages; the newest one always stays, however large.
 * Sessions keep the full record; this ring feeds the room log and the GUI's first paint.
 */
import type { AgentMessage } from '../core/events.js';

/** Default ring capacity (messages). */
export const MESSAGE_LOG_CAPACITY = 5000;
/** Default cap on the text the ring holds, in bytes of memory (a JS string costs 2 bytes per UTF-16 unit). */
export const MESSAGE_LOG_MAX_BYTES = 32 * 1024 * 1024;

/** What one message's text costs the ring, in bytes. */
function costOf(message: AgentMessage): number {
  return 2 * (message.content?.length ?? 0);
}

/** Fixed-size ring of messages, oldest dropped first. */
export class MessageLog {
  private readonly ring: AgentMessage[] = [];
  private bytes = 0;

  constructor(
    readonly capacity: number = MESSAGE_LOG_CAPACITY,
    readonly maxBytes: number = MESSAGE_LOG_MAX_BYTES,
  ) {}

  push(message: AgentMessage): void {
    this.ring.push(message);
    this.bytes += costOf(message);
    let drop = Math.max(0, this.ring.length - this.capacity);
    let bytes = this.bytes;
    for (let i = 0; i < drop; i += 1) bytes -= costOf(this.ring[i]!);
    while (bytes > this.maxBytes && drop < this.ring.length - 1) {
      bytes -= costOf(this.ring[drop]!);
      drop += 1;
    }
    if (drop > 0) {
      this.ring.splice(0, drop);
      this.bytes = bytes;
    }
  }

  /** Oldest first; `last` limits to the newest N. */
  list(last?: number): AgentMessage[] {
    return last === undefined ? this.ring.slice() : this.ring.slice(-last);
  }

  /** The ring itself, oldest first, without a copy (read-only: delivery scans it once per turn). */
  view(): readonly AgentMessage[] {
    return this.ring;
  }

  get size(): number {
    return this.ring.length;
  }

  /** Bytes of message text held now (for tests and the stats line). */
  get textBytes(): number {
    return this.bytes;
  }

  clear(): void {
    this.ring.length = 0;
    this.bytes = 0;
  }
}
