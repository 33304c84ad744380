/**
 * One HTTP attempt of an LLM call with global fetch: JSON in, JSON out, a per-request timeout combined
 * with the caller's interrupt signal, and every failure mapped to an LlmError. Headers never reach an error.
 */
import { apiError, httpError, parseError, timeoutError } from './llmError.js';
import { abortReason, type Sleep } from './retry.js';

/** One POST of a JSON body. `secret` is scrubbed from anything that ends up in an error message. */
export interface PostJsonRequest {
  backend: string;
  url: string;
  headers: Record<string, string>;
  body: unknown;
  /** Per-request timeout (seconds; fractions allowed). */
  timeoutSecs: number;
  signal?: AbortSignal;
  secret: string;
}

/** POSTs JSON and returns the parsed 2xx body; throws LlmError, or the abort reason on interrupt. */
export async function postJson(req: PostJsonRequest): Promise<unknown> {
  const timeout = AbortSignal.timeout(Math.max(1, Math.round(req.timeoutSecs * 1000)));
  const signal = req.signal === undefined ? timeout : AbortSignal.any([req.signal, timeout]);
  // Decides what an abort-looking failure was: the caller's interrupt wins over the timeout.
  const failure = (err: unknown): Error => {
    if (req.signal?.aborted) return abortReason(req.signal);
    if (timeout.aborted) return timeoutError(req.backend, req.timeoutSecs);
    return httpError(req.backend, err, req.secret);
  };
  let status: number;
  let text: string;
  try {
    const res = await fetch(req.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...req.headers },
      body: JSON.stringify(req.body),
      signal,
    });
    status = res.status;
    text = await res.text();
  } catch (err) {
    throw failure(err);
  }
  if (status < 200 || status >= 300) throw apiError(req.backend, status, text, req.secret);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw parseError(req.backend, `the body is not JSON (${text.length} chars)`);
  }
}

/** Joins a base URL and a path, trimming trailing slashes of the base. */
export function joinUrl(baseUrl: string, path: string): string {
  return `${baseUrl.replace(/\/+$/, '')}${path}`;
}

/** Connection settings shared by the HTTP backends. `apiKey` '' sends no Authorization header. */
export interface HttpBackendConfig {
  baseUrl: string;
  apiKey: string;
  /** Per-request timeout (seconds). */
  timeoutSecs: number;
  /** Attempts including the first (template.maxRetries). */
  maxRetries: number;
  sleep?: Sleep;
  onRetry?: (attempt: number, err: unknown) => void;
}
