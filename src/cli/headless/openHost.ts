/**
 * Boots the host for `ask` / `serve` (lazy: the host, the actors and lmdb load only here, never for `--help` or
 * `check`), wires `--events jsonl`, and maps a boot failure to one CLI note and its exit code (4 held, 5 broken).
 */
import { isFuseforksError, toWire, type ErrorCode, type ErrorPayload } from '../../core/errors.js';
import type { HostApi } from '../../host/hostApi.js';
import type { HostOptions } from '../../host/buildHost.js';
import { exitForBootError, type ExitCode } from '../exitCodes.js';
import type { CliOutput } from '../output.js';

/** A host, or the exit code and error of a boot that failed (reported unless the caller handles `handled` codes). */
export type Opened = { ok: true; host: HostApi } | { ok: false; exit: ExitCode; error: ErrorPayload };

/**
 * `buildHost` with the CLI's stderr mode; under jsonl every CoreEvent is streamed as one line. A failure is one CLI
 * note — except for the codes in `handled`, which the caller reports itself (ask tries the door on LOCK_HELD).
 */
export async function openHost(
  dataDir: string,
  options: Omit<HostOptions, 'stderrMode' | 'stderrLevel'>,
  output: CliOutput,
  handled: readonly ErrorCode[] = [],
): Promise<Opened> {
  const [{ buildHost }, { HostPaths }] = await Promise.all([import('../../host/buildHost.js'), import('../../host/hostPaths.js')]);
  try {
    const host = await buildHost(new HostPaths(dataDir), {
      ...options,
      stderrMode: output.mode === 'jsonl' ? 'jsonl' : 'human',
      stderrLevel: output.minLevel,
    });
    if (output.mode === 'jsonl') host.events.subscribe((event) => output.event(event));
    return { ok: true, host };
  } catch (error) {
    if (!isFuseforksError(error)) throw error;
    if (!handled.includes(error.code)) output.note({ level: 'error', code: error.code, message: error.message, ...(error.fix ? { fix: error.fix } : {}) });
    return { ok: false, exit: exitForBootError(error.code), error: toWire(error) };
  }
}

/** Closes the host; past the grace, one stderr note that spend records may be missing. */
export async function closeAndReport(host: HostApi, output: CliOutput): Promise<boolean> {
  const report = await host.close();
  if (report.graceExceeded) {
    output.note({
      level: 'warn',
      code: 'CLOSE_GRACE_EXCEEDED',
      message: 'Some agents did not stop within 30 s; the spend (turn) records of their last turns may be missing.',
      fix: 'Check fuseforks.log for the last turn lines of each agent.',
    });
  }
  return report.graceExceeded;
}
