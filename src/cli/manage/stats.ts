/**
 * `fuseforks-cli stats`: the stats of one conversation (default the latest) or of all, from the session store.
 * While the village is free it is opened through `HostApi` like every management command. While a serve or the GUI
 * holds it, the store is read read-only beside its owner (LMDB serves other processes' readers from a consistent
 * snapshot, and this command never writes), and the prices come from world.json as it is on disk.
 */
import { jsonText } from '../jsonFormat.js';
import { isFuseforksError } from '../../core/errors.js';
import { openSessionReader } from '../../core/sessions/openSessionReader.js';
import type { StatsReport, StatsScope } from '../../core/stats/statsReport.js';
import { villagePaths } from '../../core/village/paths.js';
import { loadWorld, systemLocale } from '../../core/village/worldStore.js';
import { readStats } from '../../host/stats/readStats.js';
import { EXIT, type ExitCode } from '../exitCodes.js';
import type { CliOutput } from '../output.js';
import { withVillage } from './openManaged.js';
import { statsText } from './statsText.js';

/** Parsed flags. */
export interface StatsOptions {
  dataDir: string;
  session?: string;
  all: boolean;
  /** `YYYY-MM-DD`: from that local midnight on (with --all). */
  since?: string;
  json: boolean;
}

/** Local midnight of `YYYY-MM-DD` (epoch ms), or null when it is not such a date. */
export function sinceMs(date: string): number | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (m === null) return null;
  const d = new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  return d.getFullYear() === Number(m[1]) && d.getMonth() === Number(m[2]) - 1 && d.getDate() === Number(m[3]) ? d.getTime() : null;
}

/** The scope the flags ask for; `latest` stands for the latest conversation until it is known. */
function scopeOf(options: StatsOptions, since: number | null): StatsScope | 'latest' {
  if (options.all || since !== null) return since === null ? { kind: 'all' } : { kind: 'all', sinceMs: since };
  return options.session === undefined ? 'latest' : { kind: 'session', sessionId: options.session };
}

function titleOf(scope: StatsScope, since: string | undefined): string {
  if (scope.kind === 'session') return `conversation ${scope.sessionId}`;
  return since === undefined ? 'all conversations' : `all conversations since ${since}`;
}

/** Runs `stats`; the report (or its text) on stdout. */
export async function runStats(options: StatsOptions, output: CliOutput): Promise<ExitCode> {
  const since = options.since === undefined ? null : sinceMs(options.since);
  if (options.since !== undefined && since === null) {
    output.note({ level: 'error', code: 'ARGUMENT', message: `--since ${JSON.stringify(options.since)} is not a date.`, fix: 'Give a calendar date as YYYY-MM-DD, e.g. --since 2026-11-01.' });
    return EXIT.argumentError;
  }
  const wanted = scopeOf(options, since);
  let report: { scope: StatsScope; report: StatsReport } | null;
  try {
    const managed = await withVillage(
      options.dataDir,
      'stats',
      output,
      async (host) => {
        // The host opened the latest conversation; without a store (id null) every scope has no records.
        const id = host.sessionId();
        const scope: StatsScope = wanted !== 'latest' ? wanted : id === null ? { kind: 'all' } : { kind: 'session', sessionId: id };
        return { scope, report: await host.stats(scope) };
      },
      true,
    );
    if (managed.ok) report = managed.value;
    else if (managed.held) report = await beside(options.dataDir, wanted);
    else return managed.exit;
  } catch (error) {
    if (!isFuseforksError(error)) throw error;
    output.note({ level: 'error', code: error.code, message: error.message, ...(error.fix === undefined ? {} : { fix: error.fix }) });
    return EXIT.coreError;
  }
  output.stdout(options.json ? jsonText(report.report) : statsText(report.report, titleOf(report.scope, options.since)));
  return EXIT.ok;
}

/** Reads the store read-only while another process owns the village. */
async function beside(dataDir: string, wanted: StatsScope | 'latest'): Promise<{ scope: StatsScope; report: StatsReport }> {
  const paths = villagePaths(dataDir);
  const load = await loadWorld(paths, { locale: systemLocale() });
  const templates = load.kind === 'missing' ? [] : load.doc.world.modelTemplates;
  const reader = openSessionReader(paths.workspace, { atRest: false });
  try {
    const latest = reader?.list()[0]?.id;
    const scope: StatsScope = wanted !== 'latest' ? wanted : { kind: 'session', sessionId: latest ?? '' };
    if (wanted === 'latest' && latest === undefined) return { scope, report: readStats(null, scope, templates) };
    return { scope, report: readStats(reader, scope, templates) };
  } finally {
    await reader?.close();
  }
}
