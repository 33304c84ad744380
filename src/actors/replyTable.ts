/**
 * Everyone waiting for an answer (an asking worker, an external ask): one entry per delivered envelope that
 * carries a reply route. Each wait is bounded by askTimeoutSecs; it settles exactly once with a
 * `DeliveryResult` (expected outcomes are values, never throws — STYLE 6).
 */
import type { DeliveryResult } from '../core/turn/ports.js';

interface Waiter {
  /** The agent whose mailbox holds (or whose worker handles) the envelope. */
  target: string;
  settle: (result: DeliveryResult) => void;
  timer: NodeJS.Timeout;
}

/** Pending replies keyed by envelope id. */
export class ReplyTable {
  private readonly waiters = new Map<string, Waiter>();

  /**
   * Opens a wait for the envelope `envelopeId` sent to `target`; `onSettle` runs once, with the answer,
   * `timed_out` after `timeoutMs`, or whatever `resolve*` decides.
   */
  open(envelopeId: string, target: string, timeoutMs: number, onSettle: (result: DeliveryResult) => void): void {
    const timer = setTimeout(() => this.resolve(envelopeId, { text: '', state: 'timed_out' }), timeoutMs);
    this.waiters.set(envelopeId, { target, settle: onSettle, timer });
  }

  has(envelopeId: string): boolean {
    return this.waiters.has(envelopeId);
  }

  /** Settles one wait; false when nobody waits any more (timed out, or the asker was cut). */
  resolve(envelopeId: string, result: DeliveryResult): boolean {
    const waiter = this.waiters.get(envelopeId);
    if (waiter === undefined) return false;
    this.waiters.delete(envelopeId);
    clearTimeout(waiter.timer);
    waiter.settle(result);
    return true;
  }

  /** Closes one wait without settling it (the waiter already has its answer); false when there was none. */
  dismiss(envelopeId: string): boolean {
    const waiter = this.waiters.get(envelopeId);
    if (waiter === undefined) return false;
    this.waiters.delete(envelopeId);
    clearTimeout(waiter.timer);
    return true;
  }

  /** Settles every wait on envelopes held by `target` (its worker crashed or it stopped). */
  resolveTarget(target: string, result: DeliveryResult): number {
    let n = 0;
    for (const [id, waiter] of [...this.waiters]) {
      if (waiter.target === target && this.resolve(id, result)) n++;
    }
    return n;
  }

  /** Settles everything (shutdown). */
  resolveAll(result: DeliveryResult): void {
    for (const id of [...this.waiters.keys()]) this.resolve(id, result);
  }

  get size(): number {
    return this.waiters.size;
  }
}
