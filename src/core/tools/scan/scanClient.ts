/**
 * The tool side of scanning: sends a search's jobs to wherever scanning runs (`ToolContext.scan`: the shared
 * pool, reached through the main thread) in parallel, and turns what comes back into outputs, an interruption, or
 * a refusal the model can read (pool busy, deadline passed). Without a runner (a tool called directly, in tests
 * and benches) the jobs run here, one after another.
 */
import { availableParallelism } from 'node:os';
import { toWire } from '../../errors.js';
import type { ToolContext, ToolReply } from '../contract.js';
import { refuse } from '../toolText.js';
import { runScanJob } from './runScanJob.js';
import type { ScanJob, ScanOutput, ScanRunner } from './scanJob.js';

/** Jobs one search is split into: twice the cores, so every pool thread gets work and a slow part is shared. */
export function scanParts(): number {
  return 2 * availableParallelism();
}

/** Runs jobs in this thread (no pool wired). */
export const runHere: ScanRunner = async (job, signal) => (signal.aborted ? null : runScanJob(job));

export type ScanResult<T extends ScanOutput> = { kind: 'done'; outputs: T[] } | { kind: 'interrupted' } | { kind: 'refused'; reply: ToolReply };

/** Runs `jobs` in parallel; outputs come back in job order. The first failure cancels the others. */
export async function runScanJobs<T extends ScanOutput>(ctx: ToolContext, jobs: ScanJob[]): Promise<ScanResult<T>> {
  const run = ctx.scan ?? runHere;
  const failed = new AbortController();
  const signal = AbortSignal.any([ctx.signal, failed.signal]);
  try {
    const outputs = await Promise.all(
      jobs.map((job) =>
        run(job, signal).catch((error: unknown) => {
          failed.abort();
          throw error;
        }),
      ),
    );
    if (ctx.signal.aborted || outputs.some((o) => o === null)) return { kind: 'interrupted' };
    return { kind: 'done', outputs: outputs as T[] };
  } catch (error) {
    if (ctx.signal.aborted) return { kind: 'interrupted' };
    // COMPUTE_BUSY (queue full) or COMPUTE_FAILED (deadline, a pool thread died): why, and what to do.
    const wire = toWire(error);
    return { kind: 'refused', reply: refuse(wire.fix === undefined ? wire.message : `${wire.message} ${wire.fix}`) };
  }
}
