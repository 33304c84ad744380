/**
 * When a crashed agent worker may be restarted (STYLE 7). Pure: the supervisor feeds it the facts.
 * Crash only (never a fatal LLM error), never a worker that died before `ready` (a bootstrap failure),
 * at most 3 restarts in a sliding 60 s window, with exponential backoff. Off unless `restartCrashed`.
 */

/** Restarts allowed per window. */
export const MAX_RESTARTS = 3;
/** Sliding window length (ms). */
export const RESTART_WINDOW_MS = 60_000;
/** First backoff (ms); doubles per restart already in the window. */
export const RESTART_BASE_DELAY_MS = 250;

/** Why the worker went away. */
export type FailureKind = 'crash' | 'fatal_llm';

export interface RestartFacts {
  enabled: boolean;
  failure: FailureKind;
  /** False when the worker never answered `ready`. */
  wasReady: boolean;
  /** Epoch ms of earlier restarts of this agent. */
  restartsAtMs: readonly number[];
  nowMs: number;
}

export type RestartDecision =
  | { restart: true; delayMs: number }
  | { restart: false; reason: 'disabled' | 'fatal_llm' | 'before_ready' | 'budget_spent' };

/** Decides whether to restart and after how long (ms). */
export function decideRestart(facts: RestartFacts): RestartDecision {
  if (!facts.enabled) return { restart: false, reason: 'disabled' };
  if (facts.failure === 'fatal_llm') return { restart: false, reason: 'fatal_llm' };
  if (!facts.wasReady) return { restart: false, reason: 'before_ready' };
  const recent = facts.restartsAtMs.filter((t) => facts.nowMs - t < RESTART_WINDOW_MS).length;
  if (recent >= MAX_RESTARTS) return { restart: false, reason: 'budget_spent' };
  return { restart: true, delayMs: RESTART_BASE_DELAY_MS * 2 ** recent };
}

/** Keeps only the restarts still inside the window (so the history never grows without bound). */
export function pruneRestarts(restartsAtMs: readonly number[], nowMs: number): number[] {
  return restartsAtMs.filter((t) => nowMs - t < RESTART_WINDOW_MS);
}
