/**
 * Agent workers spawned ahead of the supervisor. A worker's bootstrap costs ~20–40 ms of CPU; the CLI's `ask` and
 * `serve` know their start set right after preflight, so they spawn that many workers at once and the bootstraps run
 * on the other core while the main thread still loads the host and opens the village. A prewarmed worker only waits
 * for its `init` (agentWorker.ts); the supervisor adopts one per started agent (AgentHandle.spawn). Until adopted it
 * is unref'd (never keeps the process alive) and one that died meanwhile is never handed out.
 */
import { Worker, type ResourceLimits } from 'node:worker_threads';
import { agentWorkerUrl } from './workerUrl.js';

interface Prewarmed {
  worker: Worker;
  href: string;
  alive: boolean;
}

const idle: Prewarmed[] = [];

/**
 * Tops the idle workers of `url` up to `count` (for the supervisor to adopt): `ask` calls this once early with its
 * guess of the start set and again after preflight with the set itself, so the second call spawns only what is missing.
 */
export function prewarmAgentWorkers(count: number, url: URL = agentWorkerUrl()): void {
  const waiting = idle.filter((entry) => entry.alive && entry.href === url.href).length;
  for (let i = waiting; i < count; i += 1) {
    const entry: Prewarmed = { worker: new Worker(url), href: url.href, alive: true };
    // Until adopted nobody else listens: a bootstrap failure here only retires this worker.
    const retire = (): void => {
      entry.alive = false;
      const at = idle.indexOf(entry);
      if (at >= 0) idle.splice(at, 1);
    };
    entry.worker.once('error', retire);
    entry.worker.once('exit', retire);
    entry.worker.unref();
    idle.push(entry);
  }
}

/** A live prewarmed worker of `url` (none when limits are asked for: those are set at spawn), ref'd again. */
export function adoptPrewarmed(url: URL, resourceLimits?: ResourceLimits): Worker | undefined {
  if (resourceLimits !== undefined) return undefined;
  const at = idle.findIndex((entry) => entry.alive && entry.href === url.href);
  if (at < 0) return undefined;
  const [entry] = idle.splice(at, 1) as [Prewarmed];
  entry.worker.removeAllListeners('error');
  entry.worker.removeAllListeners('exit');
  entry.worker.ref();
  return entry.worker;
}

/** Workers spawned but not adopted yet (tests). */
export function prewarmedCount(): number {
  return idle.length;
}
