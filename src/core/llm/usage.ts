/**
 * Usage arithmetic shared by the turn ledger and the backends (tokens). The budget's effective-token
 * weighting lives with the budget engineer, not here.
 */
import type { Usage } from './canonical.js';

/** Field-wise sum of two usages (tokens). */
export function addUsage(a: Usage, b: Usage): Usage {
  return {
    prompt: a.prompt + b.prompt,
    completion: a.completion + b.completion,
    cacheRead: a.cacheRead + b.cacheRead,
    cacheWrite: a.cacheWrite + b.cacheWrite,
    cacheWrite1h: a.cacheWrite1h + b.cacheWrite1h,
    reasoning: a.reasoning + b.reasoning,
  };
}

/** Tokens written to the cache for 5 minutes: the part of cacheWrite that was not written for 1 hour. */
export function cacheWrite5m(u: Usage): number {
  return Math.max(0, u.cacheWrite - u.cacheWrite1h);
}

/** prompt + completion (tokens). */
export function totalTokens(u: Usage): number {
  return u.prompt + u.completion;
}

/** A non-negative integer from a provider field, 0 when absent or malformed (unreported = 0). */
export function tokenCount(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? Math.floor(value) : 0;
}

/**
 * Completion tokens with reasoning included, whichever way an OpenAI-shaped usage block counts them. OpenAI counts
 * reasoning inside `completion_tokens` / `output_tokens` (total = prompt + completion); xAI reports it beside them
 * (total = prompt + completion + reasoning), so its reasoning is added in. Only an exact total says "beside": without
 * one, or with any other total, the OpenAI convention holds (unreported = inside, never counted twice).
 */
export function completionWithReasoning(reported: { prompt: number; completion: number; reasoning: number; total: number }): number {
  const { prompt, completion, reasoning, total } = reported;
  const beside = reasoning > 0 && total === prompt + completion + reasoning;
  return beside ? completion + reasoning : completion;
}
