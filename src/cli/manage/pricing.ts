/**
 * `fuseforks-cli pricing`: the price-table source and the fetch, through `HostApi.pricing`. Reading the source also
 * answers while another process holds the village (from the shelf file); setting it or fetching does not.
 */
import { jsonText } from '../jsonFormat.js';
import { isFuseforksError } from '../../core/errors.js';
import { villagePaths } from '../../core/village/paths.js';
import { baseOf } from '../../core/village/revision.js';
import type { PriceFetchReport, PricingSourceView } from '../../host/hostApi.js';
import { readPricingSource } from '../../host/pricing/pricingSource.js';
import { EXIT, type ExitCode } from '../exitCodes.js';
import type { CliOutput } from '../output.js';
import { withVillage } from './openManaged.js';

/** What `pricing` was asked. `url`: undefined = leave, null = clear. */
export interface PricingOptions {
  dataDir: string;
  url?: string | null;
  fetch: boolean;
  json: boolean;
}

function sourceLine(view: Pick<PricingSourceView, 'url' | 'blocked'>): string {
  if (view.blocked !== null) return `price table: blocked — ${view.blocked}`;
  return view.url === null ? 'price table: no source set (nothing is ever fetched)' : `price table: ${view.url}`;
}

function fetchLines(report: PriceFetchReport): string[] {
  const lines = [`fetched ${report.entries.length} prices as of ${report.asOf ?? 'today (the table names no date)'}${report.dropped > 0 ? `, ${report.dropped} dropped (bad value or no input/output price)` : ''}`];
  for (const a of report.applied) lines.push(`  priced ${a.templateId} (${a.model})`);
  if (report.unmatched.length > 0) lines.push(`  not in the table: ${report.unmatched.join(', ')}`);
  return lines;
}

/** Shows, sets or clears the source, then fetches when asked. */
export async function runPricing(options: PricingOptions, output: CliOutput): Promise<ExitCode> {
  const changes = options.url !== undefined || options.fetch;
  const managed = await withVillage(
    options.dataDir,
    'pricing',
    output,
    async (host) => {
      // Each change carries the revision it was read at, as the GUI's do (core/village/revision.ts).
      const seen = await host.pricing.source();
      const source = options.url === undefined ? seen : await host.pricing.setSource(options.url, baseOf(seen));
      const report = options.fetch ? await host.pricing.fetch({ apply: true }, baseOf(host.village.state())) : null;
      return { source, report };
    },
    !changes,
  ).catch((error: unknown) => {
    if (!isFuseforksError(error)) throw error;
    output.note({ level: 'error', code: error.code, message: error.message, ...(error.fix === undefined ? {} : { fix: error.fix }) });
    return { ok: false as const, exit: EXIT.coreError, held: false };
  });
  let result: { source: Pick<PricingSourceView, 'url' | 'blocked'>; report: PriceFetchReport | null };
  if (managed.ok) result = managed.value;
  else if (managed.held && !changes) {
    const read = await readPricingSource(villagePaths(options.dataDir).shelf.pricing);
    result = { source: read.ok ? { url: read.url, blocked: null } : { url: null, blocked: read.error.message }, report: null };
  } else return managed.exit;
  if (options.json) {
    const report = result.report === null ? null : { ...result.report, state: undefined };
    output.stdout(jsonText({ source: { url: result.source.url, blocked: result.source.blocked }, fetch: report }));
  } else {
    output.stdout(sourceLine(result.source));
    if (result.report !== null) for (const line of fetchLines(result.report)) output.stdout(line);
  }
  return EXIT.ok;
}
