/**
 * LLM failures as FuseforksErrors with `LLM_*` codes, and the one rule for which of them a retry may cure.
 * Messages name the backend and status; bodies are truncated and scrubbed of the API key; headers never appear.
 */
import { FuseforksError, type ErrorCode, type ErrorDetails } from '../errors.js';
import { tagFactory, type ErrorFactory } from '../errors/errorFactory.js';
import type { Usage } from './canonical.js';

/** Longest provider error body kept in an error (chars). */
export const MAX_ERROR_BODY_CHARS = 2_000;

/** The `LLM_*` codes this layer raises. */
export type LlmErrorCode = Extract<ErrorCode, `LLM_${string}`>;

/** A FuseforksError from the LLM layer. `usage` is set only for a paid failure (truncated output, safety block). */
export class LlmError extends FuseforksError {
  override readonly code: LlmErrorCode;
  /** Tokens paid for by the failed call (LLM_OUTPUT_TRUNCATED, LLM_BLOCKED). */
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

/** What an LLM error factory builds: the usual sentences plus the retry verdict, and the paid usage / HTTP status. */
interface LlmErrorSpec {
  message: string;
  fix?: string | undefined;
  retryable: boolean;
  status?: number;
  usage?: Usage;
  details?: ErrorDetails;
}

/** A factory bound to one LLM_* code (STYLE 20); it makes LlmErrors so `usage` and `status` travel with them. */
function llmFactory<A extends unknown[]>(code: LlmErrorCode, build: (...args: A) => LlmErrorSpec): ErrorFactory<A, LlmError> {
  return tagFactory(code, (...args: A) => {
    const { message, ...options } = build(...args);
    return new LlmError(code, message, options);
  });
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
export const configError = llmFactory('LLM_CONFIG', (message: string, fix?: string) => ({ message, fix, retryable: false }));

/** A non-2xx provider answer. 429 and 5xx are retryable; 400/401/403/404 and the rest stop the agent. */
export const apiError = llmFactory('LLM_API', (backend: string, status: number, body: string, secret: string) => ({
  message: `${backend} API returned HTTP ${status}: ${scrubBody(body, secret)}`,
  fix:
    status === 401 || status === 403
      ? 'check the API key stored for this model template (fuseforks-cli secrets set <template-id>)'
      : status === 404
        ? 'check the model template baseUrl and model name'
        : status === 429
          ? 'the provider is rate limiting; wait or lower the request rate'
          : undefined,
  retryable: isTransientStatus(status),
  status,
  details: { status, bodyChars: body.length },
}));

/** Connection or transport failure (refused, reset, DNS): retryable. */
export const httpError = llmFactory('LLM_HTTP', (backend: string, cause: unknown, secret: string) => {
  const why = cause instanceof Error ? (cause.cause instanceof Error ? `${cause.message}: ${cause.cause.message}` : cause.message) : String(cause);
  return {
    message: `${backend} request failed: ${scrubBody(why, secret)}`,
    fix: 'check that the model server at the template baseUrl is reachable',
    retryable: true,
  };
});

/** The per-request timeout fired: retryable. */
export const timeoutError = llmFactory('LLM_TIMEOUT', (backend: string, seconds: number) => ({
  message: `${backend} request timed out after ${seconds} s`,
  fix: 'raise requestTimeoutSecs on the model template, or check the model server',
  retryable: true,
  details: { timeoutSecs: seconds },
}));

/** The provider answered but with nothing usable (no choices / no content): retryable. */
export const emptyResponseError = llmFactory('LLM_EMPTY_RESPONSE', (backend: string) => ({
  message: `${backend} returned an empty response`,
  retryable: true,
}));

/** Malformed response (invalid JSON, bad tool arguments): not retryable. `what` never holds a body. */
export const parseError = llmFactory('LLM_PARSE', (backend: string, what: string) => ({
  message: `${backend} response could not be parsed: ${what}`,
  retryable: false,
}));

/** The output hit the token limit with no text and no calls: a paid failure that keeps the agent running. */
export const truncatedError = llmFactory('LLM_OUTPUT_TRUNCATED', (backend: string, limit: number, usage: Usage) => ({
  message: `${backend} output was cut at the ${limit}-token limit before any text`,
  fix: 'raise maxOutputTokens on the model template',
  retryable: false,
  usage,
  details: { limit, ...usage },
}));

/**
 * The provider refused the content (a safety filter, a blocked prompt, a refusal stop) and produced no answer:
 * not retried (the same input is refused again) and paid for. `reason` is the provider's own label, never a body.
 */
export const blockedError = llmFactory('LLM_BLOCKED', (backend: string, reason: string, usage: Usage) => ({
  message: `${backend} blocked the reply (${reason})`,
  fix: "rephrase the request, or check the provider's safety settings for this model",
  retryable: false,
  usage,
  details: { reason, ...usage },
}));

/** A reply (whole or streamed) passed the template's maxResponseBytes: not retried, the same question brings the same flood. */
export const responseTooLarge = llmFactory('LLM_RESPONSE_TOO_LARGE', (backend: string, cap: number, seen: number) => ({
  message: `${backend} sent more than ${cap} bytes (${seen} read before the connection was closed); the reply was not used`,
  fix: 'if this model is meant to answer that much, raise maxResponseBytes on the model template (bytes); otherwise ask for a shorter answer',
  retryable: false,
  details: { capBytes: cap, readBytes: seen },
}));

/** The event stream ended before the provider's final event (a dropped connection): retryable. */
export const streamCutError = llmFactory('LLM_HTTP', (backend: string) => ({
  message: `${backend} stream ended before the reply was complete`,
  fix: 'check the connection to the model server; if a proxy breaks server-sent events, set "stream": false on the model template',
  retryable: true,
}));

/**
 * An error the provider sent inside a 2xx event stream (`event: error`, `response.failed`), mapped to the HTTP
 * status it stands for so the retry rule stays the same: overload / server faults and rate limits are retried.
 */
export function streamErrorEvent(backend: string, status: number, kind: string, message: string, secret: string): LlmError {
  return apiError(backend, status, `${kind}: ${message}`, secret);
}

/**
 * An interrupt cut a stream after the provider had started answering: still an interruption (an AbortError),
 * carrying what the call was billed for so far and the text received (the completion estimate).
 */
export class InterruptedCall extends Error {
  override readonly name = 'AbortError';
  constructor(
    readonly usage: Usage,
    readonly received: string,
  ) {
    super('the call was interrupted');
  }
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
