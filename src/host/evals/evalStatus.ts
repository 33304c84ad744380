/**
 * The eval status of the design at a data dir as it is on disk now (read-only, no lock: `bake` calls it beside a
 * running village): its cases, its digest, and the gate over the runs kept on this machine (core/evals/evalGate.ts).
 */
import { evalGate, type EvalGate } from '../../core/evals/evalGate.js';
import { villagePaths } from '../../core/village/paths.js';
import { loadWorld } from '../../core/village/worldStore.js';
import { designDigest } from './designDigest.js';
import { readEvalCases } from './evalFiles.js';
import { listEvalRuns } from './evalResults.js';

/** The gate for the design at `dataDir` (null when there is no readable world.json: bake reports that itself). */
export async function evalStatusOf(dataDir: string): Promise<EvalGate | null> {
  const paths = villagePaths(dataDir);
  const load = await loadWorld(paths, { locale: 'ja' });
  if (load.kind !== 'loaded') return null;
  const { cases, problems } = await readEvalCases(paths.workspace);
  const digest = await designDigest(paths.dataDir, load.doc.world.agents.map((a) => a.id));
  return evalGate(cases.map((c) => c.id), problems.map((p) => p.file), digest, await listEvalRuns(paths.dataDir));
}
