import { describe, expect, it } from 'vitest';
import { applyPriceTable, parsePriceTable, type PriceTable } from '../../../src/core/billing/priceTable.js';
import { template } from '../../actors/support/villageFixture.js';

const unset = { inputPerMtok: null, outputPerMtok: null, cacheReadPerMtok: null, cacheWritePerMtok: null, cacheWrite1hPerMtok: null };

describe('parsePriceTable: numbers and keys only; a bad entry drops alone and is counted', () => {
  it.each([
    ['a full entry', { key: 'claude-x', input_per_mtok: 3, output_per_mtok: 15, cache_read_per_mtok: 0.3, cache_write_per_mtok: 3.75, cache_write_1h_per_mtok: 6 }, { inputPerMtok: 3, outputPerMtok: 15, cacheReadPerMtok: 0.3, cacheWritePerMtok: 3.75, cacheWrite1hPerMtok: 6 }],
    ['cache prices left unset (not 0)', { key: 'm', input_per_mtok: 1.5, output_per_mtok: 7.5 }, { ...unset, inputPerMtok: 1.5, outputPerMtok: 7.5 }],
    ['0 is a price', { key: 'free', input_per_mtok: 0, output_per_mtok: 0 }, { ...unset, inputPerMtok: 0, outputPerMtok: 0 }],
    ['a bad cache price leaves that field unset', { key: 'm', input_per_mtok: 1, output_per_mtok: 2, cache_read_per_mtok: -1 }, { ...unset, inputPerMtok: 1, outputPerMtok: 2 }],
    ['no output price: dropped', { key: 'half', input_per_mtok: 2 }, null],
    ['negative: dropped', { key: 'neg', input_per_mtok: -1, output_per_mtok: 2 }, null],
    ['above 1000: dropped', { key: 'absurd', input_per_mtok: 999_999, output_per_mtok: 2 }, null],
    ['a string number: dropped', { key: 's', input_per_mtok: '3', output_per_mtok: 2 }, null],
    ['no key: dropped', { input_per_mtok: 1, output_per_mtok: 2 }, null],
    ['not an object: dropped', 42, null],
  ] as const)('%s', (_name, entry, expected) => {
    const table = parsePriceTable(JSON.stringify({ fetched: '2026-08-18', models: [entry] }), 'prices.test');
    expect(table.asOf).toBe('2026-08-18');
    if (expected === null) {
      expect(table).toMatchObject({ entries: [], dropped: 1 });
    } else {
      expect(table.dropped).toBe(0);
      expect(table.entries[0]!.prices).toEqual(expected);
    }
  });

  it.each([
    ['not JSON', '{ nope', /is not JSON/],
    ['no models list', '{"fetched":"2026-01-01"}', /has no "models" list/],
    ['an array', '[]', /has no "models" list/],
  ])('refuses %s whole, naming the source (PRICING_FETCH)', (_name, text, message) => {
    expect(() => parsePriceTable(text, 'prices.example')).toThrow(expect.objectContaining({ code: 'PRICING_FETCH', message: expect.stringMatching(message) }));
    expect(() => parsePriceTable(text, 'prices.example')).toThrow(/prices\.example/);
  });

  it('a table without a date has asOf null', () => {
    expect(parsePriceTable('{"models":[]}', 's').asOf).toBeNull();
  });
});

describe('applyPriceTable: matching model names take the prices and the date', () => {
  const table: PriceTable = {
    asOf: '2026-08-18',
    dropped: 0,
    entries: [{ key: 'm-A', prices: { ...unset, inputPerMtok: 3, outputPerMtok: 15, cacheReadPerMtok: 0.3 } }],
  };
  const priced = template({ id: 'a', model: 'm-A', inputPerMtok: 9, outputPerMtok: 9, cacheWritePerMtok: 9, pricingAsOf: '2025-01-01' });
  const other = template({ id: 'b', model: 'm-B', inputPerMtok: 1, outputPerMtok: 2 });

  it('replaces all five prices (unset where the table gives none) and dates them; others stay', () => {
    const out = applyPriceTable([priced, other], table, '2026-12-03');
    expect(out.applied).toEqual([{ templateId: 'a', model: 'm-A' }]);
    expect(out.unmatched).toEqual(['b']);
    expect(out.templates[0]).toMatchObject({ inputPerMtok: 3, outputPerMtok: 15, cacheReadPerMtok: 0.3, cacheWritePerMtok: null, cacheWrite1hPerMtok: null, pricingAsOf: '2026-08-18' });
    expect(out.templates[1]).toBe(other);
  });

  it('a table without a date dates the prices with the day of the fetch', () => {
    const out = applyPriceTable([priced], { ...table, asOf: null }, '2026-12-03');
    expect(out.templates[0]!.pricingAsOf).toBe('2026-12-03');
  });
});
