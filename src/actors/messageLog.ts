/**
 * The in-memory message log: a ring of the last 5000 recorded messages (reference: log_capacity).
 * Sessions keep the full record; this ring feeds the room log and the GUI's first paint.
 */
import type { AgentMessage } from '../core/events.js';

/** Default ring capacity (messages). */
export const MESSAGE_LOG_CAPACITY = 5000;

/** Fixed-size ring of messages, oldest dropped first. */
export class MessageLog {
  private readonly ring: AgentMessage[] = [];

  constructor(readonly capacity: number = MESSAGE_LOG_CAPACITY) {}

  push(message: AgentMessage): void {
    this.ring.push(message);
    if (this.ring.length > this.capacity) this.ring.splice(0, this.ring.length - this.capacity);
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

  clear(): void {
    this.ring.length = 0;
  }
}
