/**
 * `fuseforks-cli check` as a testable function: resolve the start set, gather the view from files, run the pure
 * preflight, render, and return the exit code (SPEC §6.1, §6.4). Writes nothing anywhere but stdout/stderr.
 */
import { doorAddress } from '../manage/throughDoor.js';
import { isFuseforksError } from '../../core/errors.js';
import { gatherView } from '../../core/preflight/gatherView.js';
import { headlessPreflight, type PreflightMode } from '../../core/preflight/headlessPreflight.js';
import type { SecretSource } from '../../core/secrets/openSecretStore.js';
import type { EnvLike } from '../../core/secrets/envSecretStore.js';
import type { SecretStore } from '../../core/secrets/secretStore.js';
import type { RunApprovalMode } from '../../core/tools/contract.js';
import { hostFileProblems } from '../../host/fileProblems.js';
import { EXIT, exitForArgumentError, exitForBootError, exitForPreflight, type ExitCode } from '../exitCodes.js';
import { renderFindingsHuman, renderFindingsJson, type CliOutput } from '../output.js';

/** The parsed arguments of `check`. */
export interface CheckOptions {
  dataDir: string;
  for: PreflightMode;
  start: string;
  secrets: SecretSource;
  bypassPlanReview: boolean;
  runApproval: RunApprovalMode;
  json: boolean;
  /** Environment for `--secrets env` and PATH (default `process.env`). */
  env?: EnvLike;
  /** Test seam for the secret store. */
  store?: SecretStore;
}

/** Runs `check`; 0 = no reject, 3 = rejected, 2 = bad argument, 4 = held (the checked command would exit 4) or the store held, 5 = unreadable. */
export async function runCheck(options: CheckOptions, output: CliOutput): Promise<ExitCode> {
  let gathered;
  try {
    gathered = await gatherView({
      dataDir: options.dataDir,
      mode: options.for,
      start: options.start,
      secrets: options.secrets,
      bypassPlanReview: options.bypassPlanReview,
      runApproval: options.runApproval,
      verifySessionStore: true,
      lookForHolder: true,
      askKeyringStores: true,
      moreProblems: hostFileProblems,
      ...(options.env === undefined ? {} : { env: options.env }),
      ...(options.store === undefined ? {} : { store: options.store }),
    });
  } catch (error) {
    if (!isFuseforksError(error)) throw error;
    output.note({ level: 'error', code: error.code, message: error.message, ...(error.fix ? { fix: error.fix } : {}) });
    return exitForBootError(error.code);
  }
  if (!gathered.ok) {
    const { message, fix } = gathered.argument;
    output.note({ level: 'error', code: 'ARGUMENT', message, fix });
    return exitForArgumentError();
  }
  const findings = headlessPreflight(gathered.world, gathered.schedules, gathered.view);
  output.stdout(options.json ? renderFindingsJson(findings, gathered.view.start) : renderFindingsHuman(findings, gathered.world.language));
  const exit = exitForPreflight(findings);
  if (exit !== EXIT.ok || !findings.some((f) => f.code === 'VILLAGE_HELD')) return exit;
  // Held by another process: never "OK" when the checked command would then exit 4 — serve always, ask unless the
  // holder's door is switched on (shelf file only: check opens no connection).
  const door = options.for === 'ask' ? await doorAddress(options.dataDir) : null;
  if (door !== null) return exit;
  output.note({
    level: 'error',
    code: 'LOCK_HELD',
    message: options.for === 'serve'
      ? 'Another process holds this village, so serve would exit 4 (see VILLAGE_HELD above).'
      : 'Another process holds this village and its MCP door is off, so ask would exit 4 (see VILLAGE_HELD above).',
    fix: options.for === 'serve'
      ? 'Stop the other process first.'
      : 'Stop the other process, or switch its door on (fuseforks-cli door enable --data-dir …, then restart serve) so ask goes through it.',
  });
  return EXIT.villageHeld;
}
