/**
 * A published price table (pure): what `pricing.json`'s URL answers, read and applied to templates.
 *
 * The table is `{ "fetched": "YYYY-MM-DD"?, "models": [{ "key": <model name>, "input_per_mtok", "output_per_mtok",
 * "cache_read_per_mtok"?, "cache_write_per_mtok"?, "cache_write_1h_per_mtok"? }] }`, USD per 1M tokens. Only numbers
 * and the matching key are taken from it. A value outside 0..1000, or an entry without both an input and an output
 * price, drops that one entry (counted, never silent); a document that is not such an object is refused whole.
 * A price the table does not give stays unset on the template (unset ≠ 0: the cost formula's fall-backs apply).
 */
import { FuseforksError } from '../errors.js';
import type { ModelTemplate } from '../world/types.js';
import type { TemplatePrices } from './pricing.js';
import { priceTableError } from '../errors/pricingErrors.js';

/** Rates above this (USD per 1M tokens) are a unit mix-up or a broken table, not a price. */
export const MAX_RATE_PER_MTOK = 1000;

/** One model's prices from the table (unset = the table did not give it). */
export interface PriceTableEntry {
  key: string;
  prices: Omit<TemplatePrices, 'pricingAsOf'>;
}

/** A table as read: its date, the usable entries and how many were dropped. */
export interface PriceTable {
  /** The table's own date (`fetched`), or null when it names none. */
  asOf: string | null;
  entries: PriceTableEntry[];
  dropped: number;
}

const FIELDS = [
  ['input_per_mtok', 'inputPerMtok'],
  ['output_per_mtok', 'outputPerMtok'],
  ['cache_read_per_mtok', 'cacheReadPerMtok'],
  ['cache_write_per_mtok', 'cacheWritePerMtok'],
  ['cache_write_1h_per_mtok', 'cacheWrite1hPerMtok'],
] as const;

/** The one error of a table that cannot be used (what and where; the body itself is never quoted). */
export { priceTableError };

const sane = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) && v >= 0 && v <= MAX_RATE_PER_MTOK ? v : null);

/** Reads a table's text; `source` names it in the error (the URL). */
export function parsePriceTable(text: string, source: string): PriceTable {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw priceTableError(source, 'is not JSON', 'Point pricing.json at a JSON price table ({"fetched": …, "models": [{"key": …, "input_per_mtok": …}]}).');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value) || !Array.isArray((value as { models?: unknown }).models)) {
    throw priceTableError(source, 'has no "models" list', 'Point pricing.json at a price table whose top level is {"fetched": …, "models": […]}.');
  }
  const raw = value as { fetched?: unknown; models: unknown[] };
  const entries: PriceTableEntry[] = [];
  let dropped = 0;
  for (const item of raw.models) {
    const e = (typeof item === 'object' && item !== null ? item : {}) as Record<string, unknown>;
    const prices = Object.fromEntries(FIELDS.map(([wire, field]) => [field, sane(e[wire])])) as PriceTableEntry['prices'];
    const key = typeof e.key === 'string' ? e.key.trim() : '';
    if (key === '' || prices.inputPerMtok === null || prices.outputPerMtok === null) {
      dropped += 1;
      continue;
    }
    entries.push({ key, prices });
  }
  const asOf = typeof raw.fetched === 'string' && raw.fetched.trim() !== '' ? raw.fetched.trim() : null;
  return { asOf, entries, dropped };
}

/** One template a table priced. */
export interface AppliedPrice {
  templateId: string;
  model: string;
}

/**
 * Applies `table` to every template whose model name equals an entry's key: its five prices become the entry's
 * (unset where the entry gives none) and `pricingAsOf` the table's date, else `today` (YYYY-MM-DD). Templates the
 * table does not name are left as they are.
 */
export function applyPriceTable(
  templates: readonly ModelTemplate[],
  table: PriceTable,
  today: string,
): { templates: ModelTemplate[]; applied: AppliedPrice[]; unmatched: string[] } {
  const byKey = new Map(table.entries.map((e) => [e.key, e]));
  const applied: AppliedPrice[] = [];
  const unmatched: string[] = [];
  const next = templates.map((t) => {
    const entry = byKey.get(t.model.trim());
    if (entry === undefined) {
      unmatched.push(t.id);
      return t;
    }
    applied.push({ templateId: t.id, model: t.model });
    return { ...t, ...entry.prices, pricingAsOf: table.asOf ?? today };
  });
  return { templates: next, applied, unmatched };
}
