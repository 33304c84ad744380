/**
 * `HostApi.pricing`: the price-table source on the shelf and the fetch a person asks for. Fetching reads the table
 * and either answers it (the GUI fills the template form with it, to be saved by the person) or applies it at once
 * to every template whose model the table names, with the table's date (`apply: true`, the CLI). Setting the source
 * takes pricing.json's revision as its base; applying a table takes world.json's (core/village/revision.ts).
 */
import type { DiagSink } from '../../core/diag.js';
import { isFuseforksError } from '../../core/errors.js';
import { applyPriceTable, type AppliedPrice, type PriceTableEntry } from '../../core/billing/priceTable.js';
import type { ModelTemplate } from '../../core/world/types.js';
import type { VillageState } from '../villageCommands.js';
import { fetchPriceTable } from './priceFetch.js';
import { readPricingSource, savePricingSource, type PricingSourceRead, type PricingSourceView } from './pricingSource.js';
import { priceSourceUnset } from '../../core/errors/pricingErrors.js';
import { dirname } from 'node:path';
import { readTextOrEmpty } from '../../core/village/promptFiles.js';
import { fileTarget, requireContentBase, revisionsOf, type EditBase } from '../../core/village/revision.js';

export type { PricingSourceView } from './pricingSource.js';
export type { AppliedPrice, PriceTableEntry } from '../../core/billing/priceTable.js';

/** What one fetch read (and, with `apply`, changed). */
export interface PriceFetchReport {
  url: string;
  /** The table's date (null when it names none; applied templates then get the day of the fetch). */
  asOf: string | null;
  entries: PriceTableEntry[];
  /** Entries dropped for a bad value or a missing input/output price. */
  dropped: number;
  /** Templates the table priced (with `apply`: written to world.json). */
  applied: AppliedPrice[];
  /** Template ids the table does not name (left as they are). */
  unmatched: string[];
  /** With `apply`: the village re-read after the write. */
  state: VillageState | null;
}

/** The price table as the host exposes it. */
export interface PricingApi {
  /** The source URL on this machine's shelf (pricing.json), or why that file is blocked. No network. */
  source(): Promise<PricingSourceView>;
  /** Sets (https, or http to loopback) or clears (null) the source; `base` = pricing.json's revision. */
  setSource(url: string | null, base?: EditBase): Promise<PricingSourceView>;
  /**
   * GETs the table once (PRICING_FETCH when there is no source or it fails). Without `apply` nothing is written;
   * with it, every template whose model the table names takes its prices and date (`base` = world.json's revision).
   */
  fetch(options?: { apply?: boolean }, base?: EditBase): Promise<PriceFetchReport>;
}

/** What the facet acts on. */
export interface PricingPorts {
  file: string;
  templates(): readonly ModelTemplate[];
  editTemplates(change: (templates: readonly ModelTemplate[]) => ModelTemplate[], base?: EditBase): Promise<VillageState>;
  diag: DiagSink;
  now?: () => number;
}

/** The shelf file as a document (it sits at the top of the data dir). */
const targetOf = (file: string) => fileTarget(dirname(file), file);

async function viewOf(file: string, read: PricingSourceRead): Promise<PricingSourceView> {
  const revisions = revisionsOf(targetOf(file), await readTextOrEmpty(file).catch(() => ''));
  return read.ok ? { url: read.url, blocked: null, revisions } : { url: null, blocked: read.error.message, revisions };
}

/** Creates the facet over the shelf file and the village's templates. */
export function createPricing(ports: PricingPorts): PricingApi {
  let queue: Promise<unknown> = Promise.resolve();
  const serial = <T>(job: () => Promise<T>): Promise<T> => {
    const run = queue.then(job, job);
    queue = run.catch(() => undefined);
    return run;
  };
  return {
    async source() {
      return viewOf(ports.file, await readPricingSource(ports.file));
    },
    setSource(url, base) {
      return serial(async () => {
        const prior = await readPricingSource(ports.file);
        if (prior.ok) requireContentBase(targetOf(ports.file), await readTextOrEmpty(ports.file), base);
        await savePricingSource(ports.file, url, prior);
        return viewOf(ports.file, await readPricingSource(ports.file));
      });
    },
    fetch(options = {}, base) {
      return serial(async () => {
        const read = await readPricingSource(ports.file);
        if (!read.ok) throw read.error;
        if (read.url === null) {
          throw priceSourceUnset(ports.file);
        }
        const source = new URL(read.url).host;
        let report: PriceFetchReport;
        try {
          const table = await fetchPriceTable(read.url);
          const today = new Date((ports.now ?? Date.now)()).toISOString().slice(0, 10);
          const planned = applyPriceTable(ports.templates(), table, today);
          const state = options.apply === true && planned.applied.length > 0 ? await ports.editTemplates((current) => applyPriceTable(current, table, today).templates, base) : null;
          report = { url: read.url, asOf: table.asOf, entries: table.entries, dropped: table.dropped, applied: planned.applied, unmatched: planned.unmatched, state };
        } catch (error) {
          ports.diag.note('pricing fetch failed', { source, code: isFuseforksError(error) ? error.code : 'BUG' }, 'warn');
          throw error;
        }
        ports.diag.note('pricing fetch', {
          source,
          entries: report.entries.length,
          dropped: report.dropped,
          as_of: report.asOf ?? '-',
          matched: report.applied.length,
          written: report.state === null ? 0 : report.applied.length,
        });
        return report;
      });
    },
  };
}
