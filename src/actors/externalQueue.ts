/**
 * The external endpoint's mailbox: requests from outside the village (the door, `ask`, library callers) wait here
 * in arrival order and are served one at a time, as before — one external request in the village at once keeps
 * the budget and the hop counters honest (a second caller cannot double-spend the reception). Bounded: when
 * `capacity` requests already wait, the next is refused at once with EXTERNAL_BUSY. Each waiting request keeps its
 * own wait limit; one that runs out while waiting leaves the queue as `expired` without ever being delivered.
 */
import { externalBusy } from '../core/errors/runtimeErrors.js';

/** Requests that may wait behind the one being served. */
export const EXTERNAL_QUEUE_CAPACITY = 16;

/** How a wait ended: this request's turn (call `release` when done), its wait limit, its caller gone, or closing. */
export type ExternalTicket = { kind: 'served'; release: () => void } | { kind: 'expired' } | { kind: 'aborted' } | { kind: 'closed' };

interface Waiter {
  settle: (ticket: ExternalTicket) => void;
  timer: NodeJS.Timeout;
  detach: () => void;
}

/** One-at-a-time gate with a bounded FIFO in front of it. */
export class ExternalQueue {
  private serving = false;
  private readonly waiting: Waiter[] = [];
  private closed = false;

  constructor(readonly capacity: number = EXTERNAL_QUEUE_CAPACITY) {
    if (!Number.isInteger(capacity) || capacity < 0) throw new RangeError(`external queue capacity must be a whole number ≥ 0, got ${capacity}`);
  }

  /** Requests waiting (not counting the one served). */
  get size(): number {
    return this.waiting.length;
  }

  /**
   * Waits for this request's turn, at most `waitMs`. Throws EXTERNAL_BUSY at once when the queue is full; a
   * `signal` that aborts while waiting removes the request from the queue.
   */
  acquire(waitMs: number, signal?: AbortSignal): Promise<ExternalTicket> {
    if (this.closed) return Promise.resolve({ kind: 'closed' });
    if (signal?.aborted === true) return Promise.resolve({ kind: 'aborted' });
    if (!this.serving) {
      this.serving = true;
      return Promise.resolve(this.ticket());
    }
    if (this.waiting.length >= this.capacity) {
      return Promise.reject(
        externalBusy(this.waiting.length, this.capacity),
      );
    }
    return new Promise((resolve) => {
      const onAbort = (): void => leave({ kind: 'aborted' });
      const waiter: Waiter = {
        settle: resolve,
        timer: setTimeout(() => leave({ kind: 'expired' }), Math.max(0, waitMs)),
        detach: () => signal?.removeEventListener('abort', onAbort),
      };
      const leave = (ticket: ExternalTicket): void => {
        const i = this.waiting.indexOf(waiter);
        if (i < 0) return;
        this.waiting.splice(i, 1);
        clearTimeout(waiter.timer);
        waiter.detach();
        resolve(ticket);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiting.push(waiter);
    });
  }

  /** Refuses every waiting request (`closed`) and any later one (village closing). */
  close(): void {
    this.closed = true;
    for (const waiter of this.waiting.splice(0)) {
      clearTimeout(waiter.timer);
      waiter.detach();
      waiter.settle({ kind: 'closed' });
    }
  }

  private ticket(): ExternalTicket {
    let released = false;
    return {
      kind: 'served',
      release: () => {
        if (released) return;
        released = true;
        this.next();
      },
    };
  }

  /** Hands the gate to the oldest waiter, or opens it. */
  private next(): void {
    const waiter = this.waiting.shift();
    if (waiter === undefined) {
      this.serving = false;
      return;
    }
    clearTimeout(waiter.timer);
    waiter.detach();
    waiter.settle(this.ticket());
  }
}
