/**
 * The first thing a cold `ask` does once its arguments are read: spawn the start set's agent workers, so their
 * bootstraps (~20 ms of CPU each; on two cores the longest part of a cold `ask`) run on the other core while this
 * one loads the rest of the command and opens the village. The reception's worker goes first, before the village
 * lock is even probed; the rest once world.json says who starts. Preflight later tops them up to the set it resolved
 * (`topUpForAsk`; the same request is not read twice).
 *
 * Only ever costs time: it reads world.json as preflight will and resolves `--start` the same way; when anything is
 * off (no village, a file zod must explain, a bad `--start`) it spawns no more and preflight reports the problem as
 * before. Workers left over (a rejected preflight) are unref'd and never keep the process alive (workerPrewarm.ts).
 * While another process holds the village the ask goes through its door: a serve's heartbeat says so before any
 * spawn; a holder without one (the GUI) is found by the lock probe, and the one worker spawned is stopped mid-boot.
 */
import { existsSync } from 'node:fs';
import { DEFAULT_MAX_AGE_SECS, judgeServeStatus, pidAlive, readServeStatus, serveStatusPath } from '../../host/health/serveStatus.js';
import { discardPrewarmed, prewarmAgentWorkers } from '../../host/prewarmWorkers.js';
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
    // A live serve's heartbeat: it holds the village and this ask goes through its door, starting no agent here.
    if (await liveServeHolds(dataDir)) return 0;
    // The reception always starts: its worker boots while the lock is probed (koffi's first load) and world.json read.
    prewarmAgentWorkers(1);
    // Held all the same (a GUI, which keeps no heartbeat): the one spawned worker is stopped mid-boot.
    if (villageLockHeld(paths.lock)) {
      discardPrewarmed();
      return 0;
    }
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

/** True when `serve.status.json` is a live serve's (its pid a running serve, written within the usual max age). */
async function liveServeHolds(dataDir: string): Promise<boolean> {
  if (!existsSync(serveStatusPath(dataDir))) return false; // the usual case, without a round trip to the file system
  const read = await readServeStatus(dataDir);
  return judgeServeStatus(read, { nowMs: Date.now(), maxAgeSecs: DEFAULT_MAX_AGE_SECS, pidAlive, ready: false }).healthy;
}

/** Preflight's top-up to the start set it resolved (none while another process holds the village: the ask goes through its door). */
export function topUpForAsk(dataDir: string, count: number): void {
  if (!villageLockHeld(villagePaths(dataDir).lock)) prewarmAgentWorkers(count);
}
