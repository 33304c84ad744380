/**
 * Eval results kept on this machine: one JSON file per run under `{dataDir}/eval-results/` (folder 0700, files
 * 0600 whatever the umask), never under `workspace/`, so `bake` and `seed` never carry them (they copy the design
 * list only). The newest `KEPT_RUNS` stay; older files are removed when a run is saved.
 */
import { chmod, mkdir, readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { CaseResult, RunSummary } from '../../core/evals/caseResult.js';
import type { EvalCaseProblem } from '../../core/evals/parseEvalCase.js';
import { writeFileAtomic } from '../../core/village/atomicWrite.js';

/** Runs kept per village. */
export const KEPT_RUNS = 100;

/** One eval run as it is kept and reported (`eval --json` prints this object). */
export interface EvalRunRecord {
  format: 1;
  runId: string;
  startedAt: string;
  finishedAt: string;
  /** designDigest.ts: which design ran. */
  digest: string;
  /** The `--start` the run was given. */
  start: string;
  /** The whole-run token budget (effective tokens), null when none was set. */
  budget: number | null;
  interrupted: boolean;
  summary: RunSummary;
  cases: CaseResult[];
  /** Case files that could not be used (they are not run, and they fail the run). */
  problems: EvalCaseProblem[];
}

/** `{dataDir}/eval-results`. */
export function evalResultsDir(dataDir: string): string {
  return join(dataDir, 'eval-results');
}

/** Saves `record` as `{runId}.json` and prunes beyond KEPT_RUNS; answers the file's path. */
export async function saveEvalRun(dataDir: string, record: EvalRunRecord): Promise<string> {
  const dir = evalResultsDir(dataDir);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  await chmod(dir, 0o700);
  const file = join(dir, `${record.runId}.json`);
  await writeFileAtomic(file, `${JSON.stringify(record)}\n`, { mode: 0o600 });
  await chmod(file, 0o600);
  const names = (await readdir(dir)).filter((n) => n.endsWith('.json')).sort();
  for (const old of names.slice(0, Math.max(0, names.length - KEPT_RUNS))) await rm(join(dir, old), { force: true });
  return file;
}

/** The kept runs, newest first (a file that cannot be read or parsed is skipped). */
export async function listEvalRuns(dataDir: string, limit = KEPT_RUNS): Promise<EvalRunRecord[]> {
  let names: string[];
  try {
    names = (await readdir(evalResultsDir(dataDir))).filter((n) => n.endsWith('.json')).sort().reverse();
  } catch {
    return [];
  }
  const out: EvalRunRecord[] = [];
  for (const name of names.slice(0, limit)) {
    try {
      const record = JSON.parse(await readFile(join(evalResultsDir(dataDir), name), 'utf8')) as EvalRunRecord;
      if (record.format === 1) out.push(record);
    } catch {
      // damaged or partly written by an older build: skipped
    }
  }
  return out;
}
