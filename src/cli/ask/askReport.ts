/**
 * What `ask` reports, as pure functions: the one `--json` object (also the final `outcome` line of
 * `--events jsonl`), the stderr notice of an unanswered request (6–9: stdout only ever holds an answer), and the
 * reasons of the turns that failed under it — the error's code, message and fix, which are reasons, never bodies.
 */
import type { TokenTotals } from '../../core/billing/tokenTotals.js';
import type { ErrorPayload } from '../../core/errors.js';
import type { PlanTaskState } from '../../core/events.js';
import { EXIT, exitForOutcome, type ExitCode } from '../exitCodes.js';
import type { CliNote } from '../output.js';

/** `ask --json`: exactly one object on stdout. `outcome` null = nothing was delivered (exit 1–5). */
export interface AskReport {
  /** The reception's answer; null when the request was not answered (exit ≠ 0). */
  answer: string | null;
  outcome: PlanTaskState | null;
  exitCode: ExitCode;
  sessionId: string | null;
  /** Tokens of every LLM call of the request's chain (the reception and whom it asked); null when nothing was delivered. */
  tokens: TokenTotals | null;
  /** USD of those calls priced from their templates; null when none has a price (or nothing was delivered). */
  cost: number | null;
}

/** The outcome a delivered request came back with, as the host answers it (`AskOutcome`). */
export interface DeliveredOutcome {
  answer: string;
  state: PlanTaskState;
  tokens: TokenTotals | null;
  cost: { usd: number | null };
}

/** The report of a delivered request. */
export function deliveredReport(outcome: DeliveredOutcome, sessionId: string | null): AskReport {
  const exitCode = exitForOutcome(outcome.state);
  return {
    answer: exitCode === EXIT.ok ? outcome.answer : null,
    outcome: outcome.state,
    exitCode,
    sessionId,
    tokens: outcome.tokens,
    cost: outcome.cost.usd,
  };
}

/** The report of a request that was never delivered (preflight, lock, boot, start failure, signal during boot). */
export function undeliveredReport(exitCode: ExitCode): AskReport {
  return { answer: null, outcome: null, exitCode, sessionId: null, tokens: null, cost: null };
}

const OUTCOME_FIX: Partial<Record<PlanTaskState, string>> = {
  no_answer: 'See the reasons above (or workspace/fuseforks.log) and fix what they name, then ask again.',
  undeliverable: 'Start the agents the reception delegates to (--start batch or a list), then ask again.',
  running: 'See workspace/fuseforks.log for the turn that did not end.',
  timed_out: 'Give it longer: --timeout SECS, or askTimeoutSecs in world.json.',
  budget_exhausted: 'Raise tokenBudget in world.json, or ask for less.',
};

/** The stderr note for an unanswered outcome (the fixed notice text), or null for an answer. */
export function outcomeNote(outcome: DeliveredOutcome): CliNote | null {
  if (exitForOutcome(outcome.state) === EXIT.ok) return null;
  const fix = OUTCOME_FIX[outcome.state];
  return { level: 'warn', code: outcome.state.toUpperCase(), message: outcome.answer, ...(fix === undefined ? {} : { fix }) };
}

/** One error note per distinct failure (agent + code + message), in the order they happened. */
export function failureNotes(failures: readonly ErrorPayload[]): CliNote[] {
  const seen = new Set<string>();
  const notes: CliNote[] = [];
  for (const f of failures) {
    const key = `${f.agentId ?? ''}\u0000${f.code}\u0000${f.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const who = f.agentId === null || f.agentId === undefined ? '' : `${f.agentId}: `;
    notes.push({ level: 'error', code: f.code, message: `${who}${f.message}`, ...(f.fix === undefined ? {} : { fix: f.fix }) });
  }
  return notes;
}
