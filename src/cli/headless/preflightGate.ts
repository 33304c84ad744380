/**
 * The first step of `ask` and `serve`: the same preflight as `check`, before anything is opened (SPEC §6.1).
 * A rejection returns exit 3 having created nothing (no lock file, no log, no LLM request). Findings go to stderr
 * as CLI notes: rejects and warnings always, information only with `--verbose`.
 */
import { isFuseforksError } from '../../core/errors.js';
import { gatherView } from '../../core/preflight/gatherView.js';
import { hasReject } from '../../core/preflight/finding.js';
import { headlessPreflight, type PreflightMode } from '../../core/preflight/headlessPreflight.js';
import type { SecretSource } from '../../core/secrets/openSecretStore.js';
import type { RunApprovalMode } from '../../core/tools/contract.js';
import { hostFileProblems } from '../../host/fileProblems.js';
import { EXIT, exitForArgumentError, exitForBootError, type ExitCode } from '../exitCodes.js';
import type { CliOutput } from '../output.js';

/** The flags ask and serve share with check. */
export interface HeadlessFlags {
  dataDir: string;
  start: string;
  secrets: SecretSource;
  bypassPlanReview: boolean;
  runApproval: RunApprovalMode;
  /** Environment for `--secrets env`, PATH and the locale (default process.env). */
  env?: NodeJS.ProcessEnv;
}

/** Passed: the resolved start set. Stopped: the exit code to return. */
export type GateResult = { ok: true; start: string[] } | { ok: false; exit: ExitCode };

const NOTE_LEVEL = { reject: 'error', warn: 'warn', info: 'info' } as const;

/** Runs preflight for `mode` and reports its findings; never opens or writes anything. */
export async function preflightGate(mode: PreflightMode, flags: HeadlessFlags, output: CliOutput, verbose: boolean): Promise<GateResult> {
  let gathered;
  try {
    gathered = await gatherView({
      dataDir: flags.dataDir,
      mode,
      start: flags.start,
      secrets: flags.secrets,
      bypassPlanReview: flags.bypassPlanReview,
      runApproval: flags.runApproval,
      moreProblems: hostFileProblems,
      ...(flags.env === undefined ? {} : { env: flags.env }),
    });
  } catch (error) {
    if (!isFuseforksError(error)) throw error;
    output.note({ level: 'error', code: error.code, message: error.message, ...(error.fix ? { fix: error.fix } : {}) });
    return { ok: false, exit: exitForBootError(error.code) };
  }
  if (!gathered.ok) {
    output.note({ level: 'error', code: 'ARGUMENT', message: gathered.argument.message, fix: gathered.argument.fix });
    return { ok: false, exit: exitForArgumentError() };
  }
  const findings = headlessPreflight(gathered.world, gathered.schedules, gathered.view);
  for (const f of findings) {
    if (f.level === 'info' && !verbose) continue;
    output.note({ level: NOTE_LEVEL[f.level], code: f.code, message: f.message, fix: f.fix });
  }
  if (hasReject(findings)) return { ok: false, exit: EXIT.preflightRejected };
  return { ok: true, start: [...gathered.view.start] };
}
