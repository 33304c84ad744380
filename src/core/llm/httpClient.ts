/**
 * One HTTP attempt of an LLM call with global fetch: a JSON body out, and either one JSON body back (`postJson`)
 * or a server-sent event stream fed event by event (`postStream`, parsed with eventsource-parser). Both combine
 * the caller's interrupt signal with a timeout and map every failure to an LlmError. Headers never reach an error.
 */
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { apiError, httpError, LlmError, parseError, timeoutError } from './llmError.js';
import { abortReason, type Sleep } from './retry.js';
import { capBody, DEFAULT_MAX_RESPONSE_BYTES, readCappedText } from './bodyCap.js';

/** One POST of a JSON body. `secret` is scrubbed from anything that ends up in an error message. */
export interface PostJsonRequest {
  backend: string;
  url: string;
  headers: Record<string, string>;
  body: unknown;
  /** Per-request timeout (seconds; fractions allowed). A stream restarts it on every chunk (an idle timeout). */
  timeoutSecs: number;
  signal?: AbortSignal;
  secret: string;
  /** Most bytes of the answer read, whole or streamed (template.maxResponseBytes); past it LLM_RESPONSE_TOO_LARGE. */
  maxResponseBytes?: number;
}

/** One server-sent event: its `event:` name (if any) and its `data:` text. */
export type SseEvent = Pick<EventSourceMessage, 'event' | 'data'>;

/** A streamed POST. `onEvent` may throw an LlmError (a provider `error` event): the stream is then closed. */
export interface PostStreamRequest extends PostJsonRequest {
  /** The provider answered 2xx: it has started working on the request (and billing it). */
  onOpen?(): void;
  onEvent(event: SseEvent): void;
}

/** What a streamed POST got: a stream (fed to `onEvent`), or one JSON body from a server that does not stream. */
export type StreamAnswer = { kind: 'stream' } | { kind: 'json'; json: unknown };

/** Decides what an abort-looking failure was: the caller's interrupt wins over the timeout. */
function failureOf(req: PostJsonRequest, timedOut: () => boolean): (err: unknown) => Error {
  return (err) => {
    if (req.signal?.aborted) return abortReason(req.signal);
    if (timedOut()) return timeoutError(req.backend, req.timeoutSecs);
    if (err instanceof LlmError) return err;
    return httpError(req.backend, err, req.secret);
  };
}

function parseBody(backend: string, text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw parseError(backend, `the body is not JSON (${text.length} chars)`);
  }
}

/** POSTs JSON and returns the parsed 2xx body; throws LlmError, or the abort reason on interrupt. */
export async function postJson(req: PostJsonRequest): Promise<unknown> {
  const timeout = AbortSignal.timeout(Math.max(1, Math.round(req.timeoutSecs * 1000)));
  const signal = req.signal === undefined ? timeout : AbortSignal.any([req.signal, timeout]);
  const failure = failureOf(req, () => timeout.aborted);
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
    text = await readCappedText(res, req.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES, req.backend);
  } catch (err) {
    throw failure(err);
  }
  if (status < 200 || status >= 300) throw apiError(req.backend, status, text, req.secret);
  return parseBody(req.backend, text);
}

/**
 * POSTs JSON asking for `text/event-stream` and feeds every event to `onEvent` until the body ends. A non-2xx
 * status is LLM_API with the body; a 2xx that is not an event stream (a proxy that ignores `stream`) comes back
 * as one JSON body. The timeout is an idle timeout: it restarts whenever bytes arrive, so a long answer that
 * keeps streaming is never cut, and a silent server is. An interrupt closes the connection at once.
 */
export async function postStream(req: PostStreamRequest): Promise<StreamAnswer> {
  const ms = Math.max(1, Math.round(req.timeoutSecs * 1000));
  const local = new AbortController();
  let timedOut = false;
  let timer = setTimeout(() => ((timedOut = true), local.abort()), ms);
  const bump = (): void => {
    clearTimeout(timer);
    timer = setTimeout(() => ((timedOut = true), local.abort()), ms);
  };
  const signal = req.signal === undefined ? local.signal : AbortSignal.any([req.signal, local.signal]);
  const failure = failureOf(req, () => timedOut);
  try {
    const res = await fetch(req.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream', ...req.headers },
      body: JSON.stringify(req.body),
      signal,
    });
    bump();
    const cap = req.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
    if (res.status < 200 || res.status >= 300) throw apiError(req.backend, res.status, await readCappedText(res, cap, req.backend), req.secret);
    req.onOpen?.();
    const type = res.headers.get('content-type') ?? '';
    if (!type.includes('text/event-stream') || res.body === null) return { kind: 'json', json: parseBody(req.backend, await readCappedText(res, cap, req.backend)) };
    const parser = createParser({ onEvent: (event) => req.onEvent(event) });
    // The same cap as a whole answer: a stream that never ends is cut at maxResponseBytes too.
    const reader = (capBody(res, cap, req.backend) ?? res.body).pipeThrough(new TextDecoderStream()).getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      bump();
      parser.feed(value);
    }
    // A last event without its blank line still counts.
    parser.reset({ consume: true });
    return { kind: 'stream' };
  } catch (err) {
    throw failure(err);
  } finally {
    clearTimeout(timer);
    // Closes the connection when we stop early (a provider error event, a parse failure): never leave it open.
    local.abort();
  }
}

/** Joins a base URL and a path, trimming trailing slashes of the base. */
export function joinUrl(baseUrl: string, path: string): string {
  return `${baseUrl.replace(/\/+$/, '')}${path}`;
}

/** Connection settings shared by the HTTP backends. `apiKey` '' sends no auth header. */
export interface HttpBackendConfig {
  baseUrl: string;
  apiKey: string;
  /** Per-request timeout (seconds); for a stream, the longest silence. */
  timeoutSecs: number;
  /** Attempts including the first (template.maxRetries). */
  maxRetries: number;
  /** Most bytes of one answer (template.maxResponseBytes; default 8 MiB). */
  maxResponseBytes?: number;
  /** Ask for a server-sent event stream (template.stream). */
  stream: boolean;
  sleep?: Sleep;
  onRetry?: (attempt: number, err: unknown) => void;
}
