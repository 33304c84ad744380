/**
 * The first thing a cold `ask` does once its arguments are read: spawn the start set's agent workers, so their
 * bootstraps (~20 ms of CPU each; on two cores the longest part of a cold `ask`) run on the other core while this
 * one loads the rest of the command and opens the village. Preflight later tops them up to the set it resolved
 * (`topUpForAsk`; the same request is not read twice).
 *
 * Only ever costs time: it reads world.json as preflight will and resolves `--start` the same way; when anything is
 * off (no village, a file zod must explain, a bad `--start`) it spawns nothing and preflight reports the problem as
 * before. Workers left over (a rejected preflight) are unref'd and never keep the process alive (workerPrewarm.ts).
 */
import { prewarmAgentWorkers } from '../../host/prewarmWorkers.js';
import { villagePaths } from '../../core/village/paths.js';
import { loadWorld } from '../../core/village/worldStore.js';
import { resolveStartSet } from '../../core/world/startSet.js';
import { villageLockHeld } from './villageHeldProbe.js';

/** The last request spawned for (usually the only one). */
let spawnedFor: { dataDir: string; start: string; count: number } | null = null;

/** Spawns the workers `ask --data-dir dataDir --start start` will start (none while another process holds the village); never throws. */
export async function prewarmForAsk(dataDir: string, start: string): Promise<number> {
  if (spawnedFor !== null && spawnedFor.dataDir === dataDir && spawnedFor.start === start) return spawnedFor.count;
  try {
    const paths = villagePaths(dataDir);
    // A serve holds the village: this ask will go through its door and start no agent here.
    if (villageLockHeld(paths.lock)) return 0;
    // Same locale as preflight's read: only the language default depends on it, never the start set.
    const load = await loadWorld(paths, { locale: 'ja' });
    if (load.kind !== 'loaded') return 0;
    const resolved = resolveStartSet(load.doc.world, start, 'ask');
    if (!resolved.ok) return 0;
    prewarmAgentWorkers(resolved.ids.length);
    spawnedFor = { dataDir, start, count: resolved.ids.length };
    return resolved.ids.length;
  } catch {
    return 0;
  }
}

/** Preflight's top-up to the start set it resolved (none while another process holds the village: the ask goes through its door). */
export function topUpForAsk(dataDir: string, count: number): void {
  if (!villageLockHeld(villagePaths(dataDir).lock)) prewarmAgentWorkers(count);
}
