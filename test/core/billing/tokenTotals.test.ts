import { describe, expect, it } from 'vitest';
import { totalsOf } from '../../../src/core/billing/tokenTotals.js';

const row = (prompt: number, cached: number, completion: number, extra: { cacheWrite?: number; cacheWrite1h?: number; reasoning?: number } = {}) => ({
  prompt,
  cached,
  completion,
  cacheWrite: extra.cacheWrite ?? 0,
  cacheWrite1h: extra.cacheWrite1h ?? 0,
  reasoning: extra.reasoning ?? 0,
});

describe('totalsOf', () => {
  it('is all zeros for no rows', () => {
    expect(totalsOf([])).toEqual({ rows: 0, prompt: 0, cached: 0, cacheWrite: 0, cacheWrite1h: 0, completion: 0, reasoning: 0, total: 0, effective: 0 });
  });

  it('sums every field; effective weighs uncached ×1, cached ×0.1, output ×4 and rounds up once', () => {
    const totals = totalsOf([row(1000, 600, 40, { cacheWrite: 300, cacheWrite1h: 200 }), row(11, 1, 1, { reasoning: 1 })]);
    expect(totals).toEqual({ rows: 2, prompt: 1011, cached: 601, cacheWrite: 300, cacheWrite1h: 200, completion: 41, reasoning: 1, total: 1052, effective: 400 + 60 + 160 + 10 + Math.ceil(0.1) + 4 });
  });
});
