/**
 * The one network call of pricing: GET the price table once, when a person asks (the GUI's Fetch button, the CLI's
 * `pricing --fetch`). Nothing calls it at boot, on a timer or to check freshness — a price's age is read locally
 * from `pricingAsOf`. 15 s for the whole answer, 8 MiB at most, https (or http to loopback) only.
 */
import { FuseforksError } from '../../core/errors.js';
import { priceFetchFailed } from '../../core/errors/pricingErrors.js';
import { parsePriceTable, priceTableError, type PriceTable } from '../../core/billing/priceTable.js';
import { checkPricingUrl } from './pricingSource.js';

/** Longest wait for the whole answer: the person is waiting on a button. */
export const PRICE_FETCH_TIMEOUT_MS = 15_000;
/** Largest table read; a bigger answer is refused, not truncated. */
export const PRICE_TABLE_MAX_BYTES = 8 * 1024 * 1024;

/** Fetches and reads the table at `url`. Throws PRICING_FETCH saying what went wrong and how to fix it. */
export async function fetchPriceTable(url: string, timeoutMs = PRICE_FETCH_TIMEOUT_MS): Promise<PriceTable> {
  const target = checkPricingUrl(url);
  const source = new URL(target).host;
  let response: Response;
  const signal = AbortSignal.timeout(timeoutMs);
  try {
    response = await fetch(target, { signal, redirect: 'follow', headers: { accept: 'application/json' } });
  } catch (error) {
    throw priceFetchFailed(source, signal.aborted ? `did not answer within ${timeoutMs / 1000} s` : `could not be reached (${reasonOf(error)})`, error);
  }
  if (!response.ok) {
    await response.body?.cancel().catch(() => undefined);
    throw priceTableError(source, `answered HTTP ${response.status}`, 'Check the URL in pricing.json (the price table source) and try again.');
  }
  const text = await readCapped(response, source, signal);
  return parsePriceTable(text, source);
}

async function readCapped(response: Response, source: string, signal: AbortSignal): Promise<string> {
  const declared = Number(response.headers.get('content-length') ?? NaN);
  if (declared > PRICE_TABLE_MAX_BYTES) {
    await response.body?.cancel().catch(() => undefined);
    throw tooLarge(source);
  }
  if (response.body === null) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > PRICE_TABLE_MAX_BYTES) {
        await reader.cancel().catch(() => undefined);
        throw tooLarge(source);
      }
      chunks.push(value);
    }
  } catch (error) {
    if (error instanceof FuseforksError) throw error;
    throw priceFetchFailed(source, signal.aborted ? 'did not finish within the time limit' : `broke off (${reasonOf(error)})`, error);
  }
  return new TextDecoder().decode(Buffer.concat(chunks));
}

const tooLarge = (source: string): FuseforksError =>
  priceTableError(source, `is larger than ${PRICE_TABLE_MAX_BYTES / (1024 * 1024)} MiB`, 'Point pricing.json at a price table, not at a larger file.');

/** A network failure's reason (its code, e.g. ECONNREFUSED), never a body. */
function reasonOf(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown } }).cause;
  if (typeof cause?.code === 'string') return cause.code;
  return error instanceof Error ? error.message : String(error);
}
