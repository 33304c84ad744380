/**
 * LLM failures as FuseforksErrors with `LLM_*` codes, and the one rule for which of them a retry may cure.
 * Messages name the backend and status; bodies are truncated and scrubbed of the API key; headers never appear.
 */
import { FuseforksError, type ErrorCode } from '../errors.js';
import type { Usage } from './canonical.js';

/** Longest provider error body kept in an error (chars). */
export const MAX_ERROR_BODY_CHARS = 2_000;

/** The `LLM_*` codes this layer raises. */
export type LlmErrorCode = Extract<ErrorCode, `LLM_${string}`>;

/** A FuseforksError from the LLM layer. `usage` is set only for a paid failure (truncated output). */
export class LlmError extends FuseforksError {
  override readonly code: LlmErrorCode;
  /** Tokens paid for by the failed call (LLM_OUTPUT_TRUNCATED only). */
  readonly usage: Usage | null;
  /** HTTP status for LLM_API, else null. */
  readonly status: number | null;

  constructor(
    code: LlmErrorCode,
    message: string,
    options: { fix?: string; retryable: boolean; status?: number; usage?: Usage; cause?: unknown; details?: Record<string, string | number | boolean | null> },
  ) {
    super(code, message, { fix: options.fix, retryable: options.retryable, cause: options.cause, details: options.details });
    this.code = code;
    this.usage = options.usage ?? null;
    this.status = options.status ?? null;
  }
}

/** Removes every occurrence of the secret, then cuts to MAX_ERROR_BODY_CHARS. */
export function scrubBody(body: string, secret: string): string {
  const clean = secret.length >= 4 ? body.split(secret).join('[redacted]') : body;
  return clean.length > MAX_ERROR_BODY_CHARS ? `${clean.slice(0, MAX_ERROR_BODY_CHARS)}…` : clean;
}

/** API status codes a retry may cure: rate limits and server faults. */
export function isTransientStatus(status: number): boolean {
  return status === 429 || status >= 500;
}

/** A configuration problem (missing key, bad template): never retried. */
export function configError(message: string, fix?: string): LlmError {
  return new LlmError('LLM_CONFIG', message, { fix, retryable: false });
}

/** A non-2xx provider answer. 429 and 5xx are retryable; 400/401/403/404 and the rest stop the agent. */
export function apiError(backend: string, status: number, body: string, secret: string): LlmError {
  const text = scrubBody(body, secret);
  const fix =
    status === 401 || status === 403
      ? 'check the API key stored for this model template (fuseforks-cli secrets set <template-id>)'
      : status === 404
        ? 'check the model template baseUrl and model name'
        : status === 429
          ? 'the provider is rate limiting; wait or lower the request rate'
          : undefined;
  return new LlmError('LLM_API', `${backend} API returned HTTP ${status}: ${text}`, {
    fix,
    retryable: isTransientStatus(status),
    status,
    details: { status, bodyChars: body.length },
  });
}

/** Connection or transport failure (refused, reset, DNS): retryable. */
export function httpError(backend: string, cause: unknown, secret: string): LlmError {
  const why = cause instanceof Error ? (cause.cause instanceof Error ? `${cause.message}: ${cause.cause.message}` : cause.message) : String(cause);
  return new LlmError('LLM_HTTP', `${backend} request failed: ${scrubBody(why, secret)}`, {
    fix: 'check that the model server at the template baseUrl is reachable',
    retryable: true,
  });
}

/** The per-request timeout fired: retryable. */
export function timeoutError(backend: string, seconds: number): LlmError {
  return new LlmError('LLM_TIMEOUT', `${backend} request timed out after ${seconds} s`, {
    fix: 'raise requestTimeoutSecs on the model template, or check the model server',
    retryable: true,
    details: { timeoutSecs: seconds },
  });
}

/** The provider answered but with nothing usable (no choices / no content): retryable. */
export function emptyResponseError(backend: string): LlmError {
  return new LlmError('LLM_EMPTY_RESPONSE', `${backend} returned an empty response`, { retryable: true });
}

/** Malformed response (invalid JSON, bad tool arguments): not retryable. `what` never holds a body. */
export function parseError(backend: string, what: string): LlmError {
  return new LlmError('LLM_PARSE', `${backend} response could not be parsed: ${what}`, { retryable: false });
}

/** The output hit the token limit with no text and no calls: a paid failure that keeps the agent running. */
export function truncatedError(backend: string, limit: number, usage: Usage): LlmError {
  return new LlmError('LLM_OUTPUT_TRUNCATED', `${backend} output was cut at the ${limit}-token limit before any text`, {
    fix: 'raise maxOutputTokens on the model template',
    retryable: false,
    usage,
    details: { limit, ...usage },
  });
}

/** True when retrying the call may succeed: HTTP/connect/timeout, API 429 and 5xx, empty response. */
export function isTransient(err: unknown): boolean {
  if (!(err instanceof FuseforksError)) return false;
  switch (err.code) {
    case 'LLM_HTTP':
    case 'LLM_TIMEOUT':
    case 'LLM_EMPTY_RESPONSE':
      return true;
    case 'LLM_API':
      return err instanceof LlmError && err.status !== null ? isTransientStatus(err.status) : err.retryable;
    default:
      return false;
  }
}
