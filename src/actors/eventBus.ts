/**
 * The supervisor's typed event bus: `on('agentFailed', e => …)` gets the exact payload type (STYLE 8).
 * Synchronous fan-out in subscription order; a throwing listener is reported and never stops the others,
 * because the bus is called from worker message handlers where a throw would take the whole village down.
 */
import type { CoreEvent, CoreEventMap, CoreEventType } from '../core/events.js';

/** Called when a listener throws (the supervisor writes a diag note). */
export type ListenerErrorHandler = (type: CoreEventType, error: unknown) => void;

type AnyListener = (event: CoreEvent) => void;

/** Plain-data event bus over the CoreEvent union. */
export class EventBus {
  private readonly byType = new Map<CoreEventType, Set<AnyListener>>();
  private readonly any = new Set<AnyListener>();

  constructor(private readonly onListenerError: ListenerErrorHandler = () => {}) {}

  /** Subscribes to one event type; returns the unsubscribe function. */
  on<K extends CoreEventType>(type: K, listener: (event: CoreEventMap[K]) => void): () => void {
    let set = this.byType.get(type);
    if (set === undefined) {
      set = new Set();
      this.byType.set(type, set);
    }
    const wrapped = listener as AnyListener;
    set.add(wrapped);
    return () => {
      set.delete(wrapped);
    };
  }

  /** Subscribes to every event (JSONL output, the GUI relay); returns the unsubscribe function. */
  onAny(listener: (event: CoreEvent) => void): () => void {
    this.any.add(listener);
    return () => {
      this.any.delete(listener);
    };
  }

  /** Delivers `event` to its typed listeners, then to the catch-all ones. */
  emit(event: CoreEvent): void {
    const typed = this.byType.get(event.type);
    if (typed !== undefined) for (const fn of [...typed]) this.call(fn, event);
    for (const fn of [...this.any]) this.call(fn, event);
  }

  /** Number of listeners (tests and leak checks). */
  listenerCount(): number {
    let n = this.any.size;
    for (const set of this.byType.values()) n += set.size;
    return n;
  }

  private call(fn: AnyListener, event: CoreEvent): void {
    try {
      fn(event);
    } catch (error) {
      this.onListenerError(event.type, error);
    }
  }
}
