/**
 * Prices and the cost formula (pure). A template's prices are USD per 1M tokens; unset means unknown, never 0.
 * Fall-backs: cacheRead → input, cacheWrite → input, cacheWrite1h → cacheWrite (→ input). A template without an
 * input or an output price is unpriced. Cost of one row:
 *   fresh·input + cached·cacheRead + (cacheWrite − cacheWrite1h)·cacheWrite + cacheWrite1h·cacheWrite1h + completion·output
 * with fresh = prompt − cached − cacheWrite, every term clamped at 0; reasoning is inside completion.
 */
import type { ModelTemplate } from '../world/types.js';

/** Effective rates of one template, USD per 1M tokens, after the fall-backs. */
export interface Rates {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  cacheWrite1h: number;
}

/** The token fields a row is priced on (a call or a turn record). */
export interface PricedTokens {
  prompt: number;
  cached: number;
  cacheWrite: number;
  cacheWrite1h: number;
  completion: number;
}

/** The price fields of a template. */
export type TemplatePrices = Pick<
  ModelTemplate,
  'inputPerMtok' | 'outputPerMtok' | 'cacheReadPerMtok' | 'cacheWritePerMtok' | 'cacheWrite1hPerMtok' | 'pricingAsOf'
>;

/** A template with no price known (unpriced: never $0). */
export const NO_PRICES: TemplatePrices = {
  inputPerMtok: null,
  outputPerMtok: null,
  cacheReadPerMtok: null,
  cacheWritePerMtok: null,
  cacheWrite1hPerMtok: null,
  pricingAsOf: null,
};

const PER_TOKEN = 1 / 1_000_000;

/** The rates of a template, or null when it is unpriced (input or output unknown). */
export function ratesOf(prices: TemplatePrices): Rates | null {
  const input = prices.inputPerMtok;
  const output = prices.outputPerMtok;
  if (input === null || output === null) return null;
  const cacheWrite = prices.cacheWritePerMtok ?? input;
  return {
    input,
    output,
    cacheRead: prices.cacheReadPerMtok ?? input,
    cacheWrite,
    cacheWrite1h: prices.cacheWrite1hPerMtok ?? cacheWrite,
  };
}

/** USD of one row at `rates`. Never negative, whatever a provider reported. */
export function costUsd(tokens: PricedTokens, rates: Rates): number {
  const pos = (n: number): number => Math.max(0, n);
  const fresh = pos(tokens.prompt - tokens.cached - tokens.cacheWrite);
  const write1h = Math.min(pos(tokens.cacheWrite1h), pos(tokens.cacheWrite));
  const write5m = pos(tokens.cacheWrite - write1h);
  return (
    (fresh * rates.input +
      pos(tokens.cached) * rates.cacheRead +
      write5m * rates.cacheWrite +
      write1h * rates.cacheWrite1h +
      pos(tokens.completion) * rates.output) *
    PER_TOKEN
  );
}

/** A priced total over many rows, with how much of the usage had a price. */
export interface CostSummary {
  /** USD of the priced rows; null when no row had a price ("unpriced"). */
  usd: number | null;
  /** The oldest `pricingAsOf` among the templates that priced a row (null when none is dated). */
  asOf: string | null;
  pricedRows: number;
  totalRows: number;
  /** prompt + completion tokens of the priced rows / of all rows. */
  pricedTokens: number;
  totalTokens: number;
}

/** Where a row's prices come from: its template, found by id or else by model name. */
export interface PriceBook {
  pricesFor(row: { templateId?: string; model: string }): TemplatePrices | null;
}

/** A price book over the village's templates: the row's template id first, else the first template of its model. */
export function priceBook(templates: readonly (TemplatePrices & Pick<ModelTemplate, 'id' | 'model'>)[]): PriceBook {
  const byId = new Map(templates.map((t) => [t.id, t]));
  return {
    pricesFor(row) {
      const own = row.templateId === undefined ? undefined : byId.get(row.templateId);
      if (own !== undefined) return own;
      return templates.find((t) => t.model === row.model && ratesOf(t) !== null) ?? templates.find((t) => t.model === row.model) ?? null;
    },
  };
}

/** Sums the cost of `rows`; unpriced rows count in the totals only. */
export function summarizeCost(rows: Iterable<PricedTokens & { templateId?: string; model: string }>, book: PriceBook): CostSummary {
  let usd = 0;
  let asOf: string | null = null;
  const out = { pricedRows: 0, totalRows: 0, pricedTokens: 0, totalTokens: 0 };
  for (const row of rows) {
    const tokens = row.prompt + row.completion;
    out.totalRows += 1;
    out.totalTokens += tokens;
    const prices = book.pricesFor(row);
    const rates = prices === null ? null : ratesOf(prices);
    if (prices === null || rates === null) continue;
    usd += costUsd(row, rates);
    out.pricedRows += 1;
    out.pricedTokens += tokens;
    if (prices.pricingAsOf !== null && (asOf === null || prices.pricingAsOf < asOf)) asOf = prices.pricingAsOf;
  }
  return { usd: out.pricedRows === 0 ? null : usd, asOf, ...out };
}
