import { describe, expect, it } from 'vitest';
import { BudgetPool, budgetStopKind } from '../../../src/core/budget/budgetPool.js';

describe('BudgetPool.tryReserve', () => {
  it.each([
    ['fits', 10_000, 0, 4_000, true, 6_000],
    ['exactly the remainder', 10_000, 6_000, 4_000, true, 0],
    ['estimate above the ceiling', 10_000, 0, 10_001, false, 10_000],
    ['pool empty', 10_000, 10_000, 0, false, 0],
    ['less left than the estimate', 10_000, 7_000, 4_000, false, 3_000],
  ])('%s', (_name, ceiling, spentFirst, estimate, ok, remainingAfter) => {
    const pool = BudgetPool.create(ceiling);
    if (spentFirst > 0) pool.tryReserve(spentFirst)!.commit(spentFirst);
    const reservation = pool.tryReserve(estimate);
    expect(reservation !== null).toBe(ok);
    expect(pool.remainingMilli()).toBe(remainingAfter);
  });
});

describe('Reservation settlement', () => {
  it.each([
    ['commit below the estimate credits the rest', 4_000, 1_500, 8_500],
    ['commit above the estimate debits the overrun', 4_000, 6_000, 4_000],
    ['overrun never goes below 0', 4_000, 50_000, 0],
    ['commit of exactly the estimate', 4_000, 4_000, 6_000],
  ])('%s', (_name, estimate, actual, remaining) => {
    const pool = BudgetPool.create(10_000);
    pool.tryReserve(estimate)!.commit(actual);
    expect(pool.remainingMilli()).toBe(remaining);
  });

  it('refund returns the whole reservation, once', () => {
    const pool = BudgetPool.create(10_000);
    const r = pool.tryReserve(4_000)!;
    expect(pool.remainingMilli()).toBe(6_000);
    r.refund();
    r.refund();
    r.commit(1);
    expect(pool.remainingMilli()).toBe(10_000);
  });

  it('credit is capped at the ceiling', () => {
    const pool = BudgetPool.create(10_000);
    const a = pool.tryReserve(5_000)!;
    pool.adjust(5_000n); // something else credited meanwhile
    a.commit(0);
    expect(pool.remainingMilli()).toBe(10_000);
  });
});

describe('exhaustion', () => {
  it('noteExhausted is true exactly once per pool, also through another view', () => {
    const pool = BudgetPool.create(1_000);
    const other = BudgetPool.fromShared(pool.shared);
    expect(pool.noteExhausted()).toBe(true);
    expect(other.noteExhausted()).toBe(false);
    expect(pool.noteExhausted()).toBe(false);
    expect(BudgetPool.create(1_000).noteExhausted()).toBe(true);
  });

  it.each([
    [0, 'budget_exhausted'],
    [1, 'reserve_short'],
    [999_999, 'reserve_short'],
  ] as const)('remaining %i → %s', (remaining, kind) => {
    expect(budgetStopKind(remaining)).toBe(kind);
  });

  it('stopKind follows the pool', () => {
    const pool = BudgetPool.create(2_000);
    pool.tryReserve(1_500)!.commit(1_500);
    expect(pool.stopKind()).toBe('reserve_short');
    pool.tryReserve(500)!.commit(500);
    expect(pool.stopKind()).toBe('budget_exhausted');
    expect(pool.hasRemaining()).toBe(false);
  });
});

describe('shared views', () => {
  it('a view from the SharedArrayBuffer sees and changes the same pool', () => {
    const pool = BudgetPool.forTokens(10);
    const view = BudgetPool.fromShared(pool.shared);
    expect(view.ceilingMilli).toBe(10_000);
    view.tryReserve(3_000)!.commit(3_000);
    expect(pool.remainingMilli()).toBe(7_000);
  });

  it('concurrent reservations never oversubscribe', async () => {
    const pool = BudgetPool.create(10_000);
    const views = [pool, BudgetPool.fromShared(pool.shared), BudgetPool.fromShared(pool.shared)];
    const granted = await Promise.all(
      Array.from({ length: 30 }, async (_, i) => {
        await Promise.resolve();
        return views[i % views.length]!.tryReserve(1_000);
      }),
    );
    expect(granted.filter((r) => r !== null)).toHaveLength(10);
    expect(pool.remainingMilli()).toBe(0);
  });

  it('rejects a bad ceiling and a short buffer', () => {
    expect(() => BudgetPool.create(0)).toThrow(/positive/);
    expect(() => BudgetPool.fromShared(new SharedArrayBuffer(8))).toThrow(/needs 24/);
  });
});
