/**
 * The token budget of one causal root, shared by every agent worker that works for that root.
 *
 * State lives in a SharedArrayBuffer so the supervisor creates a pool per root and each worker rebuilds
 * a view of the same memory (`BudgetPool.fromShared`); reservations are lock-free compare-exchange loops,
 * so two workers can never both take the last slice. Units: milli effective tokens throughout.
 */
import type { BudgetGate, Reservation } from '../turn/ports.js';

/** Slot indexes in the BigInt64Array view. */
const CEILING = 0;
const REMAINING = 1;
const EXHAUSTED_NOTED = 2;
const SLOTS = 3;

/** Why a reservation failed: nothing left at all, or less left than the estimate. */
export type BudgetStopKind = 'budget_exhausted' | 'reserve_short';

/** Pure rule for the stop reason (`remaining == 0` → exhausted, else short). */
export function budgetStopKind(remainingMilli: number): BudgetStopKind {
  return remainingMilli <= 0 ? 'budget_exhausted' : 'reserve_short';
}

/** A thread-safe budget pool over shared memory; implements the turn engine's `BudgetGate`. */
export class BudgetPool implements BudgetGate {
  /** The shared memory; post it to a worker and call `fromShared` there. */
  readonly shared: SharedArrayBuffer;
  private readonly cells: BigInt64Array;

  private constructor(shared: SharedArrayBuffer) {
    if (shared.byteLength < SLOTS * 8) {
      throw new RangeError(`budget pool buffer is ${shared.byteLength} bytes; it needs ${SLOTS * 8}`);
    }
    this.shared = shared;
    this.cells = new BigInt64Array(shared, 0, SLOTS);
  }

  /** A fresh, full pool with a ceiling in milli effective tokens (must be a positive integer). */
  static create(ceilingMilli: number): BudgetPool {
    if (!Number.isSafeInteger(ceilingMilli) || ceilingMilli <= 0) {
      throw new RangeError(`budget ceiling must be a positive whole number of milli-tokens, got ${ceilingMilli}`);
    }
    const pool = new BudgetPool(new SharedArrayBuffer(SLOTS * 8));
    Atomics.store(pool.cells, CEILING, BigInt(ceilingMilli));
    Atomics.store(pool.cells, REMAINING, BigInt(ceilingMilli));
    return pool;
  }

  /** A pool for a village `tokenBudget` given in effective tokens. */
  static forTokens(tokenBudget: number): BudgetPool {
    return BudgetPool.create(tokenBudget * 1000);
  }

  /** Another view (typically in a worker) of a pool created elsewhere. */
  static fromShared(shared: SharedArrayBuffer): BudgetPool {
    return new BudgetPool(shared);
  }

  /** Ceiling in milli effective tokens (fixed at creation). */
  get ceilingMilli(): number {
    return Number(Atomics.load(this.cells, CEILING));
  }

  /** Remaining milli effective tokens (never below 0). */
  remainingMilli(): number {
    return Number(Atomics.load(this.cells, REMAINING));
  }

  /** True while something is left (a load only: used before delivering, not a reservation). */
  hasRemaining(): boolean {
    return this.remainingMilli() > 0;
  }

  /** Reserves `estimateMilli` or returns null: estimate above the ceiling, pool empty, or not enough left. */
  tryReserve(estimateMilli: number): Reservation | null {
    const est = BigInt(Math.max(0, Math.ceil(estimateMilli)));
    if (est > Atomics.load(this.cells, CEILING)) return null;
    for (;;) {
      const current = Atomics.load(this.cells, REMAINING);
      if (current === 0n || current < est) return null;
      if (Atomics.compareExchange(this.cells, REMAINING, current, current - est) === current) {
        return new PoolReservation(this, est);
      }
    }
  }

  /** True exactly once per pool, across all threads: the winner writes the root's one System notice. */
  noteExhausted(): boolean {
    return Atomics.compareExchange(this.cells, EXHAUSTED_NOTED, 0n, 1n) === 0n;
  }

  /** Why the last failed reservation failed, from the current remaining amount. */
  stopKind(): BudgetStopKind {
    return budgetStopKind(this.remainingMilli());
  }

  /** Adds (credit > 0) or removes (credit < 0) milli-tokens; clamps to [0, ceiling]. */
  adjust(creditMilli: bigint): void {
    if (creditMilli === 0n) return;
    const ceiling = Atomics.load(this.cells, CEILING);
    for (;;) {
      const current = Atomics.load(this.cells, REMAINING);
      let next = current + creditMilli;
      if (next < 0n) next = 0n;
      if (next > ceiling) next = ceiling;
      if (Atomics.compareExchange(this.cells, REMAINING, current, next) === current) return;
    }
  }
}

/** One reservation; settles once (later commit/refund calls are ignored). */
class PoolReservation implements Reservation {
  private settled = false;

  constructor(
    private readonly pool: BudgetPool,
    private readonly reservedMilli: bigint,
  ) {}

  commit(actualMilli: number): void {
    if (this.settled) return;
    this.settled = true;
    const actual = BigInt(Math.max(0, Math.ceil(actualMilli)));
    // Reserved more than spent → credit the rest back; spent more → debit the overrun (floor 0).
    this.pool.adjust(this.reservedMilli - actual);
  }

  refund(): void {
    if (this.settled) return;
    this.settled = true;
    this.pool.adjust(this.reservedMilli);
  }
}
