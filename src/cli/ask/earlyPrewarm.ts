/**
 * The first thing `ask` does once its flags are parsed: spawn the start set's agent workers, before the rest of the
 * command (preflight, the host) is even loaded. On two cores the workers' bootstraps are the longest part of a cold
 * `ask`; started here they run beside ~30 ms more of main-thread work than when spawned after preflight.
 *
 * A guess that only ever costs time: it reads world.json as preflight will and resolves `--start` the same way; when
 * anything is off (no village, a file zod must explain, a bad `--start`) it spawns nothing and preflight reports the
 * problem as before. Preflight's own prewarm then tops the spawned workers up to the set it resolved; workers left
 * over (a rejected preflight) are unref'd and never keep the process alive (workerPrewarm.ts).
 */
import { prewarmAgentWorkers } from '../../host/prewarmWorkers.js';
import { villagePaths } from '../../core/village/paths.js';
import { loadWorld } from '../../core/village/worldStore.js';
import { resolveStartSet } from '../../core/world/startSet.js';

/** Spawns the workers `ask --data-dir dataDir --start start` will start; never throws. */
export async function prewarmForAsk(dataDir: string, start: string): Promise<number> {
  try {
    // Same locale as preflight's read: only the language default depends on it, never the start set.
    const load = await loadWorld(villagePaths(dataDir), { locale: 'ja' });
    if (load.kind !== 'loaded') return 0;
    const resolved = resolveStartSet(load.doc.world, start, 'ask');
    if (!resolved.ok) return 0;
    prewarmAgentWorkers(resolved.ids.length);
    return resolved.ids.length;
  } catch {
    return 0;
  }
}
