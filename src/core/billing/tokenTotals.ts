/**
 * Token totals over usage rows (pure): what an ask outcome and the stats tiles add up. Effective tokens use the
 * budget's weights (uncached ×1, cached ×0.1, output ×4), summed per row in milli-tokens and rounded up once.
 */
import { effectiveMilli, effectiveTokens } from '../budget/effectiveTokens.js';

/** The token fields of one usage row (a call record or a turn record). */
export interface UsageRow {
  prompt: number;
  cached: number;
  cacheWrite: number;
  cacheWrite1h: number;
  completion: number;
  reasoning: number;
}

/** Sums of a set of rows (tokens). `total` = prompt + completion; `effective` = budget-weighted tokens. */
export interface TokenTotals {
  rows: number;
  prompt: number;
  cached: number;
  cacheWrite: number;
  cacheWrite1h: number;
  completion: number;
  reasoning: number;
  total: number;
  effective: number;
}

/** Effective milli-tokens of one row. */
export function rowMilli(row: UsageRow): number {
  return effectiveMilli({
    prompt: row.prompt,
    completion: row.completion,
    cacheRead: row.cached,
    cacheWrite: row.cacheWrite,
    cacheWrite1h: row.cacheWrite1h,
    reasoning: row.reasoning,
  });
}

/** Adds up `rows`. */
export function totalsOf(rows: Iterable<UsageRow>): TokenTotals {
  const t = { rows: 0, prompt: 0, cached: 0, cacheWrite: 0, cacheWrite1h: 0, completion: 0, reasoning: 0 };
  let milli = 0;
  for (const row of rows) {
    t.rows += 1;
    t.prompt += row.prompt;
    t.cached += row.cached;
    t.cacheWrite += row.cacheWrite;
    t.cacheWrite1h += row.cacheWrite1h;
    t.completion += row.completion;
    t.reasoning += row.reasoning;
    milli += rowMilli(row);
  }
  return { ...t, total: t.prompt + t.completion, effective: effectiveTokens(milli) };
}
