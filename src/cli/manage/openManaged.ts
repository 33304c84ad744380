/**
 * The one way a management command (`door`, …) reaches a village: through `HostApi`, opened without agents,
 * schedules or the door, and closed again. While another process holds the village a command that changes it
 * refuses politely (exit 4) — two processes writing one village's files would race — and says what to do.
 */
import { isFuseforksError } from '../../core/errors.js';
import type { SecretSource } from '../../core/secrets/openSecretStore.js';
import type { HostApi } from '../../host/hostApi.js';
import { EXIT, type ExitCode } from '../exitCodes.js';
import { closeAndReport, openHost } from '../headless/openHost.js';
import type { CliOutput } from '../output.js';
import { readBuildVersion } from '../version.js';

/** The value `fn` produced, the exit code of a village that could not be opened, or `held` (caller may read files). */
export type Managed<T> = { ok: true; value: T } | { ok: false; exit: ExitCode; held: boolean };

/**
 * Opens the village in `dataDir`, runs `fn` on its HostApi and closes it. `command` names the command in the
 * refusal; with `readOnly` a held village is returned as `held` without a note, so the caller can read the files.
 * A FuseforksError from `fn` (an unknown schedule id, a refused edit) becomes one note with its fix and exit 1.
 */
export async function withVillage<T>(
  dataDir: string,
  command: string,
  output: CliOutput,
  fn: (host: HostApi) => Promise<T>,
  readOnly = false,
  secrets: SecretSource = 'keyring',
): Promise<Managed<T>> {
  const opened = await openHost(
    dataDir,
    { appVersion: readBuildVersion(), secrets, runSchedules: false, openDoor: false, session: 'latest' },
    // The boot's log band is not what a management command is about: only its warnings and errors show.
    output.atLeast('warn'),
    ['LOCK_HELD'],
  );
  if (!opened.ok) {
    const held = opened.error.code === 'LOCK_HELD';
    if (held && !readOnly) {
      output.note({
        level: 'error',
        code: 'LOCK_HELD',
        message: `${command} changes this village, and it is open in another process (a serve or the GUI); nothing was changed.`,
        fix: 'Stop that process and run the command again, or make the change in that process (the GUI).',
      });
    }
    return { ok: false, exit: held ? EXIT.villageHeld : opened.exit, held };
  }
  try {
    return { ok: true, value: await fn(opened.host) };
  } catch (error) {
    if (!isFuseforksError(error)) throw error;
    output.note({ level: 'error', code: error.code, message: error.message, ...(error.fix ? { fix: error.fix } : {}) });
    return { ok: false, exit: EXIT.coreError, held: false };
  } finally {
    await closeAndReport(opened.host, output);
  }
}
