import { describe, expect, it } from 'vitest';
import { costUsd, NO_PRICES, priceBook, ratesOf, summarizeCost, type PricedTokens, type TemplatePrices } from '../../../src/core/billing/pricing.js';

const unset: TemplatePrices = NO_PRICES;
const p = (patch: Partial<TemplatePrices>): TemplatePrices => ({ ...unset, ...patch });

describe('ratesOf: unset is unknown, never 0, and the fall-backs', () => {
  it.each([
    ['nothing set', p({}), null],
    ['input only (half priced)', p({ inputPerMtok: 3 }), null],
    ['output only', p({ outputPerMtok: 15 }), null],
    ['input 0 and output 0 are prices', p({ inputPerMtok: 0, outputPerMtok: 0 }), { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, cacheWrite1h: 0 }],
    ['cache prices fall back to input', p({ inputPerMtok: 3, outputPerMtok: 15 }), { input: 3, output: 15, cacheRead: 3, cacheWrite: 3, cacheWrite1h: 3 }],
    ['1 h write falls back to the 5 min write', p({ inputPerMtok: 3, outputPerMtok: 15, cacheWritePerMtok: 3.75 }), { input: 3, output: 15, cacheRead: 3, cacheWrite: 3.75, cacheWrite1h: 3.75 }],
    ['all set', p({ inputPerMtok: 3, outputPerMtok: 15, cacheReadPerMtok: 0.3, cacheWritePerMtok: 3.75, cacheWrite1hPerMtok: 6 }), { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75, cacheWrite1h: 6 }],
  ] as const)('%s', (_name, prices, expected) => {
    expect(ratesOf(prices)).toEqual(expected);
  });
});

const claude = { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75, cacheWrite1h: 6 };
const t = (prompt: number, cached: number, cacheWrite: number, cacheWrite1h: number, completion: number): PricedTokens => ({ prompt, cached, cacheWrite, cacheWrite1h, completion });

describe('costUsd: fresh·in + cached·read + (write − write1h)·write + write1h·write1h + completion·out', () => {
  it.each([
    ['plain input and output', t(1_000_000, 0, 0, 0, 1_000_000), 3 + 15],
    ['cached input at the read price', t(1_000_000, 1_000_000, 0, 0, 0), 0.3],
    ['a 5 min write', t(1_000_000, 0, 1_000_000, 0, 0), 3.75],
    ['a 1 h write', t(1_000_000, 0, 1_000_000, 1_000_000, 0), 6],
    ['every part at once', t(10_000, 4_000, 3_000, 1_000, 500), (3_000 * 3 + 4_000 * 0.3 + 2_000 * 3.75 + 1_000 * 6 + 500 * 15) / 1e6],
    ['reported cached > prompt never goes negative', t(100, 500, 0, 0, 0), (500 * 0.3) / 1e6],
    ['a 1 h part above the write is clamped to the write', t(1_000, 0, 100, 900, 0), (900 * 3 + 100 * 6) / 1e6],
    ['nothing', t(0, 0, 0, 0, 0), 0],
  ])('%s', (_name, tokens, expected) => {
    expect(costUsd(tokens, claude)).toBeCloseTo(expected, 12);
  });
});

describe('summarizeCost over rows', () => {
  const templates = [
    { id: 'priced', model: 'claude', ...p({ inputPerMtok: 3, outputPerMtok: 15, pricingAsOf: '2026-07-01' }) },
    { id: 'older', model: 'gpt', ...p({ inputPerMtok: 1, outputPerMtok: 2, pricingAsOf: '2026-05-01' }) },
    { id: 'half', model: 'local', ...p({ inputPerMtok: 1 }) },
  ];
  const book = priceBook(templates);

  it('sums priced rows, counts unpriced ones in the totals only, and dates by the oldest priced template', () => {
    const rows = [
      { templateId: 'priced', model: 'claude', ...t(1_000_000, 0, 0, 0, 0) },
      { templateId: 'older', model: 'gpt', ...t(0, 0, 0, 0, 1_000_000) },
      { templateId: 'half', model: 'local', ...t(500, 0, 0, 0, 500) },
    ];
    expect(summarizeCost(rows, book)).toEqual({ usd: 3 + 2, asOf: '2026-05-01', pricedRows: 2, totalRows: 3, pricedTokens: 2_000_000, totalTokens: 2_001_000 });
  });

  it('is unpriced (usd null), not $0, when no row has a price', () => {
    expect(summarizeCost([{ templateId: 'half', model: 'local', ...t(10, 0, 0, 0, 10) }], book)).toMatchObject({ usd: null, pricedRows: 0, totalRows: 1 });
  });

  it('a row whose template was deleted is priced by a template of the same model', () => {
    expect(summarizeCost([{ templateId: 'gone', model: 'claude', ...t(1_000_000, 0, 0, 0, 0) }], book).usd).toBe(3);
    expect(summarizeCost([{ model: 'nobody', ...t(1, 0, 0, 0, 1) }], book).usd).toBeNull();
  });
});
