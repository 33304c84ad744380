/**
 * A bounded FIFO mailbox held by the supervisor (capacity 64). "Running" ⇔ a mailbox exists.
 *
 * The supervisor holds the queue and posts the next envelope only when the worker reports the previous one
 * done, so a worker never has more than one envelope: capacity and MAILBOX_FULL are decided synchronously on
 * the main thread (try_send semantics), a stop or crash knows exactly which queued asks to resolve, and a
 * queued envelope whose causal parent was cut is marked folded at the moment it is handed over.
 * The cost is one postMessage hop between turns, which is noise next to an LLM call.
 */

/** Default mailbox capacity (envelopes). */
export const MAILBOX_CAPACITY = 64;

/** Bounded FIFO; `offer` never blocks. */
export class Mailbox<T> {
  private readonly items: T[] = [];

  constructor(readonly capacity: number = MAILBOX_CAPACITY) {
    if (!Number.isInteger(capacity) || capacity < 1) {
      throw new RangeError(`mailbox capacity must be a whole number ≥ 1, got ${capacity}`);
    }
  }

  /** Appends `item`; false when full (the caller raises MAILBOX_FULL). */
  offer(item: T): boolean {
    if (this.items.length >= this.capacity) return false;
    this.items.push(item);
    return true;
  }

  /** Takes the oldest item, or undefined when empty. */
  take(): T | undefined {
    return this.items.shift();
  }

  get size(): number {
    return this.items.length;
  }

  /** Empties the mailbox and returns what was queued (stop, crash). */
  drain(): T[] {
    return this.items.splice(0);
  }
}
