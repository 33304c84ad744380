/**
 * Agent workers spawned ahead of the supervisor. A worker's bootstrap costs ~20 ms of CPU; the CLI's `ask` knows its
 * start set before the host is even loaded (earlyPrewarm.ts), so the bootstraps run while the main thread still
 * loads the CLI and opens the village. A prewarmed worker only waits for its `init` (agentWorker.ts); the supervisor
 * adopts one per started agent (AgentHandle.spawn). Until adopted it is unref'd (never keeps the process alive) and
 * one that died meanwhile is never handed out.
 *
 * At most (cores − 1) bootstraps run at once; the rest wait their turn (spawned when one comes online). The main
 * thread is the longest chain of a cold start: five bootstraps at once on two cores left it a third of a core
 * while they ran, one at a time leaves it a whole one, and the bootstraps still end by the time the host is open.
 */
import { availableParallelism } from 'node:os';
import { Worker, type ResourceLimits } from 'node:worker_threads';
import { bootMark } from '../core/bootTrace.js';
import { agentWorkerUrl } from './workerUrl.js';

interface Prewarmed {
  url: URL;
  /** Null while waiting for its turn to spawn. */
  worker: Worker | null;
  /** Spawned and not online yet: counts against the bootstraps running at once. */
  booting: boolean;
  alive: boolean;
}

const idle: Prewarmed[] = [];
let bootingNow = 0;
/** Bootstraps running at once: every core but the main thread's (at least one). */
let bootSlots = Math.max(1, availableParallelism() - 1);

function bootEnded(entry: Prewarmed): void {
  if (!entry.booting) return;
  entry.booting = false;
  bootingNow -= 1;
  spawnWaiting();
}

function retire(entry: Prewarmed): void {
  entry.alive = false;
  const at = idle.indexOf(entry);
  if (at >= 0) idle.splice(at, 1);
  bootEnded(entry);
}

function spawn(entry: Prewarmed): void {
  const worker = new Worker(entry.url);
  bootMark('prewarm spawn');
  entry.worker = worker;
  entry.booting = true;
  bootingNow += 1;
  worker.once('online', () => bootEnded(entry));
  // Until adopted nobody else listens: a bootstrap failure here only retires this worker.
  worker.once('error', () => retire(entry));
  worker.once('exit', () => retire(entry));
  worker.unref();
}

function spawnWaiting(): void {
  for (const entry of idle) {
    if (bootingNow >= bootSlots) return;
    if (entry.worker === null) spawn(entry);
  }
}

/**
 * Tops the idle workers of `url` up to `count` (for the supervisor to adopt): `ask` calls this early with its
 * guess of the start set and again after preflight with the set itself, so the second call adds only what is missing.
 * `slots` (tests): bootstraps at once, instead of (cores − 1).
 */
export function prewarmAgentWorkers(count: number, url: URL = agentWorkerUrl(), slots = bootSlots): void {
  bootSlots = slots;
  const waiting = idle.filter((entry) => entry.alive && entry.url.href === url.href).length;
  for (let i = waiting; i < count; i += 1) idle.push({ url, worker: null, booting: false, alive: true });
  spawnWaiting();
}

/**
 * A live prewarmed worker of `url` (none when limits are asked for: those are set at spawn), ref'd again. One still
 * waiting for its turn is spawned now: the supervisor needs it.
 */
export function adoptPrewarmed(url: URL, resourceLimits?: ResourceLimits): Worker | undefined {
  if (resourceLimits !== undefined) return undefined;
  const at = idle.findIndex((entry) => entry.alive && entry.url.href === url.href);
  if (at < 0) return undefined;
  const [entry] = idle.splice(at, 1) as [Prewarmed];
  if (entry.worker === null) return new Worker(entry.url);
  entry.worker.removeAllListeners('error');
  entry.worker.removeAllListeners('exit');
  entry.worker.ref();
  // Its boot slot is the adopter's business now: the ones still waiting need not wait for it.
  bootEnded(entry);
  return entry.worker;
}

/** Ends every unadopted worker (the process will not start the agents they were for). */
export function discardPrewarmed(): void {
  bootMark('prewarm discard', String(idle.length));
  for (const entry of idle.splice(0)) {
    entry.alive = false;
    if (entry.booting) bootingNow -= 1;
    entry.booting = false;
    void entry.worker?.terminate();
  }
}

/** Workers waiting to be adopted, spawned or not (tests). */
export function prewarmedCount(): number {
  return idle.length;
}

/** Unadopted workers by stage (tests): not spawned yet, spawned and booting, online. */
export function prewarmStages(): { waiting: number; booting: number; online: number } {
  const waiting = idle.filter((entry) => entry.worker === null).length;
  const booting = idle.filter((entry) => entry.booting).length;
  return { waiting, booting, online: idle.length - waiting - booting };
}
