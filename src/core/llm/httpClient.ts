/**
 * One HTTP attempt of an LLM call on Node's own `http`/`https` client: a JSON body out, and either one JSON body
 * back (`postJson`) or a server-sent event stream fed event by event (`postStream`, parsed with
 * eventsource-parser). Connections are kept alive and reused per origin (one pool per worker). Each attempt has a
 * timeout, stops at once on the caller's interrupt, reads at most the template's byte cap, and maps every failure
 * to an LlmError. Headers never reach an error.
 *
 * Why not the global `fetch`: with 16 villages in one process, 32 worker isolates each ran their own copy of
 * undici (web streams, abort-signal trees, per-call promise chains), and it and its garbage took about half of the
 * workers' CPU per request. This client does the same job with a socket pool, one timer and plain events.
 * Like `fetch` in Node 20, it does not read HTTP(S)_PROXY and does not follow redirects of a POST (a 3xx is LLM_API).
 */
import type { Agent, ClientRequest, IncomingHttpHeaders, IncomingMessage, RequestOptions } from 'node:http';
import { StringDecoder } from 'node:string_decoder';
import { urlToHttpOptions } from 'node:url';
import { createParser, type EventSourceMessage, type EventSourceParser } from 'eventsource-parser';
import { apiError, httpError, LlmError, parseError, timeoutError } from './llmError.js';
import { abortReason, type Sleep } from './retry.js';
import { ByteCap, DEFAULT_MAX_RESPONSE_BYTES } from './bodyCap.js';
import { lazyBuiltin } from '../lazyBuiltin.js';

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

/** What an exchange hands its reader: the status and headers, then the body chunk by chunk. Each may throw. */
interface BodyReader {
  head(status: number, headers: IncomingHttpHeaders): void;
  chunk(bytes: Buffer): void;
  end(): void;
}

/** One protocol's request function and keep-alive pool (the pool keeps its sockets per origin and unrefs idle ones). */
interface ProtocolClient {
  request(options: RequestOptions): ClientRequest;
  agent: Agent;
}

/**
 * Each protocol's client is made at its first call (lazyBuiltin.ts): a worker whose model is local or offline never
 * loads the TLS stack, and one that never calls a model loads neither.
 */
function lazyClient(load: () => typeof import('node:http') | typeof import('node:https')): () => ProtocolClient {
  let made: ProtocolClient | undefined;
  return () => {
    if (made !== undefined) return made;
    const mod = load();
    made = { request: (options) => mod.request(options), agent: new mod.Agent({ keepAlive: true }) };
    return made;
  };
}
const clients = {
  http: lazyClient(lazyBuiltin<typeof import('node:http')>('node:http')),
  https: lazyClient(lazyBuiltin<typeof import('node:https')>('node:https')),
};

/** Request targets parsed once per URL (a template's endpoint is the same call after call); a few per agent. */
const targets = new Map<string, ReturnType<typeof urlToHttpOptions>>();

/** The http.request options of `url`; throws a TypeError for a malformed URL, an Error for another protocol. */
function targetOf(url: string): ReturnType<typeof urlToHttpOptions> {
  let target = targets.get(url);
  if (target === undefined) {
    target = urlToHttpOptions(new URL(url));
    if (target.protocol !== 'http:' && target.protocol !== 'https:') throw new Error(`unsupported protocol ${target.protocol} (use http or https)`);
    if (targets.size >= 64) targets.clear();
    targets.set(url, target);
  }
  return target;
}

const errno = (err: unknown): string | undefined => (err as NodeJS.ErrnoException | null)?.code;

/**
 * Sends one POST and feeds its answer to `reader`. `idle`: the timeout restarts on every chunk (a stream); else it
 * bounds the whole exchange, connect included. Settles once: the first of end, failure, timeout or interrupt wins,
 * and anything but the end destroys the connection (it never goes back to the pool half read).
 */
function exchange(req: PostJsonRequest, accept: string, idle: boolean, reader: BodyReader, retried = false): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const signal = req.signal;
    if (signal?.aborted) return reject(abortReason(signal));
    let target: ReturnType<typeof urlToHttpOptions>;
    try {
      target = targetOf(req.url);
    } catch (err) {
      return reject(httpError(req.backend, err, req.secret));
    }
    const https = target.protocol === 'https:';
    const body = JSON.stringify(req.body);
    const cap = new ByteCap(req.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES, req.backend);
    let settled = false;
    let answered = false;
    const finish = (error?: Error): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      if (error === undefined) return resolve();
      client.destroy();
      reject(error);
    };
    const fail = (err: unknown): void => finish(err instanceof LlmError ? err : httpError(req.backend, err, req.secret));
    const onAbort = (): void => finish(abortReason(signal!));
    const headers = { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)), accept, ...req.headers };
    const protocol = https ? clients.https() : clients.http();
    const client = protocol.request({ ...target, method: 'POST', headers, agent: protocol.agent });
    const timer = setTimeout(() => finish(timeoutError(req.backend, req.timeoutSecs)), Math.max(1, Math.round(req.timeoutSecs * 1000)));
    client.on('error', (err) => {
      if (settled) return;
      if (!answered && !retried && client.reusedSocket && errno(err) === 'ECONNRESET') {
        // A pooled connection the server closed while it sat idle: the request never got there. Once more, fresh.
        settled = true;
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        exchange(req, accept, idle, reader, true).then(resolve, reject);
        return;
      }
      fail(err);
    });
    client.on('response', (res: IncomingMessage) => {
      answered = true;
      // A connection cut before the body's end errors the response (ECONNRESET "aborted").
      res.on('error', fail);
      try {
        cap.declared(res.headers['content-length']);
        reader.head(res.statusCode ?? 0, res.headers);
      } catch (err) {
        return fail(err);
      }
      if (idle) timer.refresh();
      res.on('data', (chunk: Buffer) => {
        if (settled) return;
        try {
          cap.add(chunk.length);
          reader.chunk(chunk);
        } catch (err) {
          return fail(err);
        }
        if (idle) timer.refresh();
      });
      res.on('end', () => {
        if (settled) return;
        try {
          reader.end();
        } catch (err) {
          return fail(err);
        }
        finish();
      });
    });
    signal?.addEventListener('abort', onAbort, { once: true });
    client.end(body);
  });
}

/** Collects a body as text (UTF-8, characters split across chunks intact). */
class TextBody {
  private readonly parts: Buffer[] = [];
  add(chunk: Buffer): void {
    this.parts.push(chunk);
  }
  text(): string {
    return this.parts.length === 1 ? this.parts[0]!.toString('utf8') : Buffer.concat(this.parts).toString('utf8');
  }
}

function parseBody(backend: string, text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw parseError(backend, `the body is not JSON (${text.length} chars)`);
  }
}

const ok = (status: number): boolean => status >= 200 && status < 300;

/** POSTs JSON and returns the parsed 2xx body; throws LlmError, or the abort reason on interrupt. */
export async function postJson(req: PostJsonRequest): Promise<unknown> {
  let status = 0;
  const body = new TextBody();
  await exchange(req, 'application/json', false, {
    head: (s) => void (status = s),
    chunk: (bytes) => body.add(bytes),
    end: () => undefined,
  });
  if (!ok(status)) throw apiError(req.backend, status, body.text(), req.secret);
  return parseBody(req.backend, body.text());
}

/**
 * POSTs JSON asking for `text/event-stream` and feeds every event to `onEvent` until the body ends. A non-2xx
 * status is LLM_API with the body; a 2xx that is not an event stream (a proxy that ignores `stream`) comes back
 * as one JSON body. The timeout is an idle timeout: it restarts whenever bytes arrive, so a long answer that
 * keeps streaming is never cut, and a silent server is. An interrupt closes the connection at once.
 */
export async function postStream(req: PostStreamRequest): Promise<StreamAnswer> {
  const reader = new StreamReader(req);
  await exchange(req, 'text/event-stream', true, reader);
  if (!ok(reader.status)) throw apiError(req.backend, reader.status, reader.body.text(), req.secret);
  return reader.events === null ? { kind: 'json', json: parseBody(req.backend, reader.body.text()) } : { kind: 'stream' };
}

/** Reads a streamed answer: events to the request's `onEvent`, or the whole body when it is not an event stream. */
class StreamReader implements BodyReader {
  status = 0;
  events: { parser: EventSourceParser; decoder: StringDecoder } | null = null;
  readonly body = new TextBody();

  constructor(private readonly req: PostStreamRequest) {}

  head(status: number, headers: IncomingHttpHeaders): void {
    this.status = status;
    if (!ok(status)) return;
    this.req.onOpen?.();
    if (!(headers['content-type'] ?? '').includes('text/event-stream')) return;
    this.events = { parser: createParser({ onEvent: (event) => this.req.onEvent(event) }), decoder: new StringDecoder('utf8') };
  }

  chunk(bytes: Buffer): void {
    if (this.events === null) this.body.add(bytes);
    else this.events.parser.feed(this.events.decoder.write(bytes));
  }

  end(): void {
    if (this.events === null) return;
    this.events.parser.feed(this.events.decoder.end());
    // A last event without its blank line still counts.
    this.events.parser.reset({ consume: true });
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
