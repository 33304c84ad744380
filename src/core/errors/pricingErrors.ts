/**
 * The price table (PRICING_FETCH): a table that could not be fetched or read. Names the source and what went
 * wrong; the body itself is never quoted.
 */
import { errorFactory } from './errorFactory.js';

/** A price table that cannot be used (`reason` finishes "The price table from `source` …"). */
export const priceTableError = errorFactory('PRICING_FETCH', (source: string, reason: string, fix: string) => ({
  message: `The price table from ${source} ${reason}.`,
  fix,
  details: { source },
}));
