/**
 * The thread entry of the scanning pool (scanPool.ts): runs one grep/fd/diff job to the end. Loads only the
 * scanning code (walker, bounded-time regex, text reading, jsdiff).
 */
import { workerData } from 'node:worker_threads';
import { runScanJob } from '../core/tools/scan/runScanJob.js';
import type { ScanJob, ScanOutput } from '../core/tools/scan/scanJob.js';

/** Jobs started by any thread of this pool (one Int32, shared with ScanPool.stats). */
const started = new Int32Array((workerData as { started: SharedArrayBuffer }).started);

export default function scan(job: ScanJob): ScanOutput {
  Atomics.add(started, 0, 1);
  return runScanJob(job);
}
