/**
 * The retry rule for LLM calls: attempts = max(maxRetries, 1), transient failures only, exponential
 * backoff 200 ms·2^n capped at 5 s. An interrupt (the caller's signal) is never retried and cuts a backoff short.
 */
import { isTransient } from './llmError.js';

/** First backoff (ms). */
export const BACKOFF_BASE_MS = 200;
/** Longest backoff (ms). */
export const BACKOFF_CAP_MS = 5_000;

/** Sleeps `ms` milliseconds, rejecting at once with the signal's reason when it aborts. */
export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

/** Backoff before retry number `n` (0-based, ms): 200, 400, 800, … capped at 5,000. */
export function backoffMs(n: number): number {
  return Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** Math.max(0, n));
}

/** Number of attempts for a template's `maxRetries` (attempts including the first; at least 1). */
export function attemptsFor(maxRetries: number): number {
  return Math.max(1, Math.floor(Number.isFinite(maxRetries) ? maxRetries : 1));
}

/** The reason an aborted signal carries, as an Error (an AbortError when the reason is not one). */
export function abortReason(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  return reason instanceof Error ? reason : new DOMException('The operation was aborted', 'AbortError');
}

/** True for the error an interrupt produces (AbortError), as opposed to a timeout or a failure. */
export function isAbortError(err: unknown): boolean {
  return err instanceof Error && err.name === 'AbortError';
}

/** Real timer sleep that honours the abort signal. */
export const realSleep: Sleep = (ms, signal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) {
      reject(abortReason(signal));
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(abortReason(signal!));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });

/** Options for `withRetry`. */
export interface RetryOptions {
  attempts: number;
  signal?: AbortSignal;
  sleep?: Sleep;
  /** Called before each retry with the failed attempt number (1-based) and its error. */
  onRetry?: (attempt: number, err: unknown) => void;
}

/** Runs `call` until it succeeds, fails non-transiently, the attempts run out, or the signal aborts. */
export async function withRetry<T>(call: (attempt: number) => Promise<T>, options: RetryOptions): Promise<T> {
  const sleep = options.sleep ?? realSleep;
  const attempts = Math.max(1, options.attempts);
  for (let attempt = 1; ; attempt++) {
    if (options.signal?.aborted) throw abortReason(options.signal);
    try {
      return await call(attempt);
    } catch (err) {
      if (options.signal?.aborted || isAbortError(err)) throw err;
      if (attempt >= attempts || !isTransient(err)) throw err;
      options.onRetry?.(attempt, err);
      await sleep(backoffMs(attempt - 1), options.signal);
    }
  }
}
