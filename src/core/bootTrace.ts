/**
 * Wall-clock marks of a cold start, for finding where the time of `fuseforks-cli ask` goes: with
 * `FUSEFORKS_BOOT_TRACE=1` each mark is one stderr line
 * `boot-trace <ms since process start> cpu=<this thread's CPU ms> <thread> <label>`, from the main thread and from
 * every agent worker (workers share the process's `performance` clock). Off (the default) a mark is one comparison.
 * No imports beyond Node's own: agent workers load this too (test/actors/workerImports.test.ts).
 */
import { readFileSync, writeSync } from 'node:fs';

const enabled = process.env.FUSEFORKS_BOOT_TRACE === '1';
let thread = 'main';

/** Names the calling thread in its marks (an agent worker calls this first; core cannot ask worker_threads). */
export function setBootTraceThread(name: string): void {
  thread = name;
}

/** This thread's CPU time so far (ms; Linux only, else NaN). */
function threadCpuMs(): number {
  try {
    return Number(readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ')[0]) / 1e6;
  } catch {
    return Number.NaN;
  }
}

/**
 * Writes one mark (synchronously: a worker's marks must not wait for the main thread's event loop). `detail` (an
 * agent id) is appended only when tracing, so a mark on a per-turn path builds no string when it is off.
 */
export function bootMark(label: string, detail?: string): void {
  if (!enabled) return;
  try {
    const text = detail === undefined ? label : `${label} ${detail}`;
    writeSync(2, `boot-trace ${performance.now().toFixed(1)} cpu=${threadCpuMs().toFixed(1)} ${thread} ${text}\n`);
  } catch {
    // stderr closed: tracing is best effort.
  }
}
