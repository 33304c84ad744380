/**
 * The one exit-code table of fuseforks-cli (SPEC §6.4) and the pure mappers onto it.
 * Scripts depend on these numbers: they are a frozen interface (data_contract `exit_codes`).
 */
import type { ErrorCode } from '../core/errors.js';
import type { PlanTaskState } from '../core/events.js';
import { hasReject, type Finding } from '../core/preflight/finding.js';

/** Exit codes by name. */
export const EXIT = {
  ok: 0,
  coreError: 1,
  argumentError: 2,
  preflightRejected: 3,
  villageHeld: 4,
  bootFailed: 5,
  noAnswer: 6,
  timedOut: 7,
  interrupted: 8,
  budgetExhausted: 9,
  evalsFailed: 10,
} as const;

/** One of the exit codes. */
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** The table as rows, for the README, `--help` and the contract test. */
export const EXIT_CODE_TABLE: ReadonlyArray<{ code: ExitCode; name: keyof typeof EXIT; meaning: string }> = [
  { code: 0, name: 'ok', meaning: 'ask: answered / handed_off · check: no reject · serve: closed by signal' },
  { code: 1, name: 'coreError', meaning: 'core error (one line: code + message)' },
  { code: 2, name: 'argumentError', meaning: 'argument error' },
  { code: 3, name: 'preflightRejected', meaning: 'preflight rejected' },
  { code: 4, name: 'villageHeld', meaning: 'village lock held / session store held by another process · check: held, so the checked command would exit 4' },
  { code: 5, name: 'bootFailed', meaning: 'boot failed: world.json unreadable or missing, secret name collision, …' },
  { code: 6, name: 'noAnswer', meaning: 'ask: no_answer / undeliverable (and running, which is not an answer)' },
  { code: 7, name: 'timedOut', meaning: 'ask: timed_out' },
  { code: 8, name: 'interrupted', meaning: 'ask: interrupted (Ctrl+C included)' },
  { code: 9, name: 'budgetExhausted', meaning: 'ask: budget_exhausted' },
  { code: 10, name: 'evalsFailed', meaning: 'eval: some case did not pass (below its minPassRate, not fully run, or its file unusable) · bake --require-evals: no passing eval run of this design' },
];

/** `ask`: the delivery outcome → exit code. `running` is not an answer, so it is 6, never 0. */
export function exitForOutcome(state: PlanTaskState): ExitCode {
  switch (state) {
    case 'answered':
    case 'handed_off':
      return EXIT.ok;
    case 'no_answer':
    case 'undeliverable':
    case 'running':
      return EXIT.noAnswer;
    case 'timed_out':
      return EXIT.timedOut;
    case 'interrupted':
      return EXIT.interrupted;
    case 'budget_exhausted':
      return EXIT.budgetExhausted;
  }
}

/** Codes that mean "another process holds this village". */
const HELD: ReadonlySet<ErrorCode> = new Set<ErrorCode>(['LOCK_HELD', 'SESSION_STORE_LOCKED']);

/** A failure before the village runs (preflight inputs or buildHost) → 4 when held elsewhere, else 5. */
export function exitForBootError(code: ErrorCode): ExitCode {
  return HELD.has(code) ? EXIT.villageHeld : EXIT.bootFailed;
}

/** `check`: 0 when nothing rejects, 3 otherwise. */
export function exitForPreflight(findings: readonly Pick<Finding, 'level'>[]): ExitCode {
  return hasReject(findings) ? EXIT.preflightRejected : EXIT.ok;
}

/** Any argument error (oclif parse failure, unknown --start id, `reception` outside ask) → 2. */
export function exitForArgumentError(): ExitCode {
  return EXIT.argumentError;
}
