/**
 * The price-table source on the shelf: `{dataDir}/pricing.json` = `{"url": "https://…"}`. It lives on the shelf, not
 * in the village, so a shared village never makes its receiver's machine fetch from a URL they did not choose (the
 * prices themselves live on the templates and travel with the village). No file = no source (nothing is ever
 * fetched); a file that cannot be read blocks fetching and saving and is never overwritten; unknown keys survive.
 */
import { readFile } from 'node:fs/promises';
import type { FuseforksError } from '../../core/errors.js';
import { pricingSourceBroken, pricingSourceUnreadable } from '../../core/errors/configErrors.js';
import { priceUrlInsecure, priceUrlInvalid } from '../../core/errors/pricingErrors.js';
import { writeFileAtomic } from '../../core/village/atomicWrite.js';
import { readJsonObject } from '../../core/village/jsonObjectText.js';

/** What a face shows: the URL (not a secret — a person reads and changes it) or why the file is blocked. */
export interface PricingSourceView {
  url: string | null;
  /** Set when pricing.json cannot be read: fetching and saving are refused until it is fixed or deleted. */
  blocked: string | null;
  /** pricing.json's revision: the base of a change of the source made from this view. */
  revisions: Record<string, string>;
}

/** A read of the shelf file. */
export type PricingSourceRead = { ok: true; url: string | null; raw: Record<string, unknown> } | { ok: false; error: FuseforksError };

/** Parses pricing.json's text (pure). */
export function parsePricingSource(text: string, file: string): PricingSourceRead {
  if (text.trim() === '') return { ok: true, url: null, raw: {} };
  const read = readJsonObject(text);
  if (!read.ok) return { ok: false, error: pricingSourceBroken(file, read.reason) };
  const raw = read.value;
  const url = raw.url ?? null;
  if (url !== null && typeof url !== 'string') return { ok: false, error: pricingSourceBroken(file, '"url" must be a string') };
  return { ok: true, url: url === null || url.trim() === '' ? null : url.trim(), raw };
}

/** Reads the shelf file; missing = no source. Never throws. */
export async function readPricingSource(file: string): Promise<PricingSourceRead> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { ok: true, url: null, raw: {} };
    return { ok: false, error: pricingSourceUnreadable(file, code, error) };
  }
  return parsePricingSource(text, file);
}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/**
 * Checks a source URL (pure): https, or plain http only to this machine's loopback (a local mirror). The fetched
 * numbers become money on screen, so nothing is taken over a path where it could be rewritten on the way.
 */
export function checkPricingUrl(url: string, field = 'url'): string {
  const trimmed = url.trim();
  let parsed: URL;
  try {
    parsed = new URL(trimmed);
  } catch {
    throw priceUrlInvalid(field, trimmed);
  }
  const loopbackHttp = parsed.protocol === 'http:' && LOOPBACK_HOSTS.has(parsed.hostname);
  if (parsed.protocol !== 'https:' && !loopbackHttp) {
    throw priceUrlInsecure(field);
  }
  return trimmed;
}

/** Sets (a URL) or clears (null or blank) the source, keeping unknown keys; refused when the last read failed. */
export async function savePricingSource(file: string, url: string | null, prior: PricingSourceRead): Promise<void> {
  if (!prior.ok) throw prior.error;
  const out: Record<string, unknown> = { ...prior.raw };
  if (url === null || url.trim() === '') delete out.url;
  else out.url = checkPricingUrl(url);
  await writeFileAtomic(file, `${JSON.stringify(out, null, 2)}\n`);
}
