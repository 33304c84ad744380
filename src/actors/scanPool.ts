/**
 * The process's one pool for CPU-heavy tool work (grep, fd and diff scanning), shared by every agent of every
 * village in the process and sized to the cores. It lives on the main thread and starts on first use (a cron
 * `ask` that never searches never pays for it); agent workers reach it through their comlink main side, so no
 * worker spawns threads of its own.
 *
 * - Cancellation: an aborted job leaves the queue, or, when running, its pool thread is terminated (piscina), so
 *   the slot is free again at once whatever the job was doing.
 * - A hard deadline per job (default 30 s): past it the job is aborted the same way → COMPUTE_FAILED.
 * - A bounded queue: when it is full a new job is refused at once with COMPUTE_BUSY ("busy, try again").
 */
import { availableParallelism } from 'node:os';
import type { Piscina } from 'piscina';
import type { ScanJob, ScanOutput } from '../core/tools/scan/scanJob.js';
import { scanWorkerUrl } from './workerUrl.js';
import { computeBusy, computeFailed } from '../core/errors/runtimeErrors.js';

/** Default hard deadline of one job. */
export const SCAN_DEADLINE_MS = 30_000;

export interface ScanPoolOptions {
  /** Pool threads; default the machine's cores. */
  threads?: number;
  /** Jobs that may wait; default 8 per thread (a search is split into 2 jobs per core). */
  maxQueue?: number;
  deadlineMs?: number;
  /** Idle threads exit after this long (ms); default 30 s, so an idle village holds no pool memory. */
  idleTimeoutMs?: number;
}

/** One pool; `run` resolves with the job's output, or rejects (aborted, busy, deadline, thread failure). */
export class ScanPool {
  private pool: Piscina<ScanJob, ScanOutput> | null = null;
  private readonly threads: number;
  private readonly maxQueue: number;
  private readonly deadlineMs: number;
  private readonly idleTimeoutMs: number;
  /** Jobs started so far, counted by the pool threads themselves (scanWorker.ts). */
  private readonly started = new SharedArrayBuffer(4);

  constructor(options: ScanPoolOptions = {}) {
    this.threads = options.threads ?? availableParallelism();
    this.maxQueue = options.maxQueue ?? 8 * this.threads;
    this.deadlineMs = options.deadlineMs ?? SCAN_DEADLINE_MS;
    this.idleTimeoutMs = options.idleTimeoutMs ?? 30_000;
  }

  /** Runs `job`; an abort of `signal` cancels it (the promise then rejects with piscina's AbortError). */
  async run(job: ScanJob, signal: AbortSignal): Promise<ScanOutput> {
    const pool = await this.openPool();
    if (pool.queueSize >= this.maxQueue) throw computeBusy(pool.queueSize);
    const deadline = AbortSignal.timeout(this.deadlineMs);
    try {
      return await pool.run(job, { signal: AbortSignal.any([signal, deadline]) });
    } catch (error) {
      if (signal.aborted) throw error;
      if (deadline.aborted) {
        throw computeFailed(`it ran longer than ${Math.round(this.deadlineMs / 1000)} s`, 'narrow the search with path or include, or simplify the pattern');
      }
      if (error instanceof Error && /queue is at limit/i.test(error.message)) throw computeBusy(pool.queueSize);
      throw computeFailed(error instanceof Error ? error.message : String(error), 'try again; if it keeps failing, see workspace/fuseforks.log');
    }
  }

  /** The pool, made on first use; piscina itself loads only then (a cron `ask` that never searches skips its ~20 files). */
  private async openPool(): Promise<Piscina<ScanJob, ScanOutput>> {
    if (this.pool !== null) return this.pool;
    const { Piscina } = await import('piscina');
    return (this.pool ??= new Piscina<ScanJob, ScanOutput>({
      filename: scanWorkerUrl().href,
      minThreads: 0,
      maxThreads: this.threads,
      maxQueue: this.maxQueue,
      idleTimeout: this.idleTimeoutMs,
      name: 'default',
      workerData: { started: this.started },
    }));
  }

  /** Jobs waiting, jobs started by a thread so far, the pool's live thread ids (tests, benches). */
  stats(): { queued: number; started: number; threadIds: number[] } {
    const pool = this.pool;
    return { queued: pool?.queueSize ?? 0, started: Atomics.load(new Int32Array(this.started), 0), threadIds: pool?.threads.map((t) => t.threadId) ?? [] };
  }

  /** Ends the pool's threads (running jobs are aborted). */
  async close(): Promise<void> {
    const pool = this.pool;
    this.pool = null;
    await pool?.destroy();
  }
}

let shared: ScanPool | null = null;

/** The process's pool (created on first call, threads on first job). */
export function sharedScanPool(): ScanPool {
  return (shared ??= new ScanPool());
}
