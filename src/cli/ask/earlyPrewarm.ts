/**
 * The first thing a cold `ask` does: spawn the start set's agent workers before the CLI itself (oclif, the commands)
 * is loaded — `bin/run.js` calls `prewarmFromArgv` with a guess read from raw argv (askArgvGuess.ts). Loading the CLI
 * keeps one core busy for ~70 ms while the other idles; on two cores the workers' bootstraps (~20 ms of CPU each) are
 * the longest part of a cold `ask`, and started here they run in that idle time. The command calls `prewarmForAsk`
 * again with its parsed flags: the same request is not read twice, a different one tops the workers up.
 *
 * A guess that only ever costs time: it reads world.json as preflight will and resolves `--start` the same way; when
 * anything is off (no village, a file zod must explain, a bad `--start`) it spawns nothing and preflight reports the
 * problem as before. Preflight's own prewarm then tops the spawned workers up to the set it resolved; workers left
 * over (a rejected preflight) are unref'd and never keep the process alive (workerPrewarm.ts).
 */
import { bootMark } from '../../core/bootTrace.js';
import { prewarmAgentWorkers } from '../../host/prewarmWorkers.js';
import { villagePaths } from '../../core/village/paths.js';
import { loadWorld } from '../../core/village/worldStore.js';
import { resolveStartSet } from '../../core/world/startSet.js';
import { guessAskWorkers } from './askArgvGuess.js';
import { villageLockHeld } from './villageHeldProbe.js';

/** The last request spawned for (the guess from argv, then the command's parsed flags: usually the same). */
let spawnedFor: { dataDir: string; start: string; count: number } | null = null;

/** The early spawn from raw argv (`['ask', …]` without node and the script); never throws. */
export async function prewarmFromArgv(argv: readonly string[], env: NodeJS.ProcessEnv): Promise<number> {
  const guess = guessAskWorkers(argv, env.FUSEFORKS_DATA_DIR);
  const count = guess === null ? 0 : await prewarmForAsk(guess.dataDir, guess.start);
  bootMark('argv prewarm');
  return count;
}

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
