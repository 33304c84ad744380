/**
 * The price table (PRICING_FETCH): a table that could not be fetched or read, or a source that cannot be used.
 * Names the source and what went wrong; the body itself is never quoted. pricing.json itself being unreadable is a
 * CONFIG_* error (configErrors.ts).
 */
import { errorFactory } from './errorFactory.js';

/** A price table that cannot be used (`reason` finishes "The price table from `source` …"). */
export const priceTableError = errorFactory('PRICING_FETCH', (source: string, reason: string, fix: string) => ({
  message: `The price table from ${source} ${reason}.`,
  fix,
  details: { source },
}));

/** The fetch of `source` broke off or failed (`reason` finishes "The price table from `source` …"; never a body). */
export const priceFetchFailed = errorFactory('PRICING_FETCH', (source: string, reason: string, cause: unknown) => ({
  message: `The price table from ${source} ${reason}.`,
  fix: 'Check the URL in pricing.json and the network, then fetch again.',
  details: { source },
  cause,
}));

/** A fetch asked for while pricing.json names no source. */
export const priceSourceUnset = errorFactory('PRICING_FETCH', (file: string) => ({
  message: `No price table source is set (${file} has no "url").`,
  fix: 'Set the price table URL first (GUI: model templates → Rates; CLI: fuseforks-cli pricing --url URL).',
  details: { file },
}));

/** A source address that is not a URL. */
export const priceUrlInvalid = errorFactory('PRICING_FETCH', (field: string, value: string) => ({
  message: `The price table ${field} "${value}" is not a URL.`,
  fix: 'Give a full address such as https://example.com/prices.json.',
  details: { field },
}));

/** A source address over plain http to another machine (the numbers become money on screen). */
export const priceUrlInsecure = errorFactory('PRICING_FETCH', (field: string) => ({
  message: `The price table ${field} must start with https:// (plain http only to 127.0.0.1 or localhost).`,
  fix: 'Use the https:// address of the price table.',
  details: { field },
}));
