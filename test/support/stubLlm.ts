/**
 * THE shared loopback stub LLM for integration tests: one node:http server on 127.0.0.1:0 speaking every wire of
 * the product with the providers' real shapes, whole bodies and server-sent event streams alike:
 * `POST /v1/chat/completions` (OpenAI-compatible), `POST /v1/messages` (Anthropic), `POST /v1/responses`
 * (OpenAI / xAI / Meta Responses) and `POST /v1/models/{model}:generateContent` / `:streamGenerateContent?alt=sse`
 * (Gemini). A request that asks for a stream (`stream: true`, or Gemini's streaming method) gets one.
 *
 * Usage:
 *   const stub = await startStubLlm();            // template.baseUrl = stub.baseUrl
 *   stub.enqueue(reply.text('hi'));               // FIFO script, one step per request
 *   stub.enqueue(reply.tool('grep', { q: 'x' }), (r) => r.model === 'm-b'); // only for matching requests
 *   stub.respond((r) => reply.text(`[stub] ${r.lastUserText}`)); // fallback when nothing queued matches
 *   ... stub.requests, stub.count, await stub.waitForClose(i) ...
 *   await stub.close();
 *
 * With nothing queued and no responder, the stub echoes: text `[stub] <last user text>`.
 * Headers are recorded as sent (so tests can assert auth); tests must never print them.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { answerOf, errorBody, successBody } from './stubLlmBodies.js';
import { streamFrames, type Frame } from './stubLlmStream.js';
import { describeRequest, guessPromptTokens, reply, type StubRequest, type StubStep, type StubWire } from './stubLlmWire.js';

export { reply, describeRequest, toolResultsOf } from './stubLlmWire.js';
export type { StubRequest, StubStep, StubUsage, StubToolCall, StubToolResult, StubWire, StubGrounding } from './stubLlmWire.js';

/** Picks a step for a request when the queue has none that matches. */
export type StubResponder = (request: StubRequest) => StubStep | Promise<StubStep>;

/** A request filter for a queued step. */
export type StubMatch = (request: StubRequest) => boolean;

/** A running stub LLM. */
export interface StubLlm {
  /** `http://127.0.0.1:PORT/v1` — use as a model template's baseUrl for any provider. */
  readonly baseUrl: string;
  readonly port: number;
  /** Every request received, in arrival order (including hung and failed ones). */
  readonly requests: StubRequest[];
  /** Number of requests received so far. */
  readonly count: number;
  /** Steps still queued. */
  readonly pending: number;
  /** Queues a step; with `match`, only a request for which it returns true takes it. */
  enqueue(step: StubStep, match?: StubMatch): void;
  /** Queues several steps in order. */
  enqueueAll(steps: StubStep[]): void;
  /** Sets the fallback responder (null restores the default echo). */
  respond(responder: StubResponder | null): void;
  /** Clears the queue, the recorded requests and the responder. */
  reset(): void;
  /** Resolves when `count` reaches n (for tests that wait on a request arriving before acting). */
  waitForCount(n: number): Promise<void>;
  /** Resolves when the first byte of the answer to `requests[i]` was written. */
  waitForFirstByte(i: number): Promise<void>;
  /** Resolves when the client closed `requests[i]` before the stub had finished its answer. */
  waitForClose(i: number): Promise<void>;
  /** Stops listening, drops hung connections and pending delays. */
  close(): Promise<void>;
}

const ROUTES: Record<string, StubWire> = {
  '/v1/chat/completions': 'openai',
  '/v1/messages': 'anthropic',
  '/v1/responses': 'responses',
};

function wireOf(path: string): StubWire | undefined {
  if (/^\/v1\/models\/[^/]+:(generateContent|streamGenerateContent)$/.test(path)) return 'gemini';
  return ROUTES[path];
}

const echoResponder: StubResponder = (r) => reply.text(`[stub] ${r.lastUserText}`);

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function flatHeaders(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(req.headers)) {
    if (v !== undefined) out[k] = Array.isArray(v) ? v.join(', ') : v;
  }
  return out;
}

function send(res: ServerResponse, status: number, body: unknown, contentType = 'application/json'): void {
  if (res.destroyed || res.writableEnded) return; // the client gave up (abort or timeout)
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  res.writeHead(status, { 'content-type': contentType, 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

/** Starts a stub LLM on 127.0.0.1 with an ephemeral port. */
export async function startStubLlm(): Promise<StubLlm> {
  const queue: Array<{ step: StubStep; match: StubMatch | undefined }> = [];
  const requests: StubRequest[] = [];
  const timers = new Set<NodeJS.Timeout>();
  const waiters: Array<{ n: number; resolve: () => void }> = [];
  // Per-request events: first byte written, closed early by the client.
  const marks = new Map<string, Array<() => void>>();
  const mark = (key: string): void => {
    for (const fn of marks.get(key) ?? []) fn();
    marks.delete(key);
  };
  const whenMarked = (key: string, done: () => boolean): Promise<void> =>
    done() ? Promise.resolve() : new Promise((resolve) => marks.set(key, [...(marks.get(key) ?? []), resolve]));
  let responder: StubResponder = echoResponder;
  let arrivals = 0;

  const takeStep = async (request: StubRequest): Promise<StubStep> => {
    const at = queue.findIndex((q) => q.match === undefined || q.match(request));
    if (at >= 0) return queue.splice(at, 1)[0]!.step;
    return responder(request);
  };

  const wait = (ms: number): Promise<void> =>
    new Promise((resolve) => {
      const t = setTimeout(() => {
        timers.delete(t);
        resolve();
      }, ms);
      timers.add(t);
    });

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const path = (req.url ?? '').split('?')[0] ?? '';
    const wire = wireOf(path);
    const raw = await readBody(req);
    if (req.method !== 'POST' || wire === undefined) {
      send(res, 404, { error: { message: `stub LLM: no route ${req.method} ${path}` } });
      return;
    }
    let body: Record<string, unknown> | null = null;
    try {
      const parsed: unknown = JSON.parse(raw);
      body = typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : null;
    } catch {
      body = null;
    }
    const index = arrivals++;
    const request: StubRequest = { wire, path, headers: flatHeaders(req), body, index, firstByteAt: null, closedEarly: false, ...describeRequest(wire, path, body) };
    requests.push(request);
    res.on('close', () => {
      if (res.writableFinished) return;
      request.closedEarly = true;
      mark(`close:${index}`);
    });
    const firstByte = (): void => {
      if (request.firstByteAt !== null) return;
      request.firstByteAt = performance.timeOrigin + performance.now();
      mark(`byte:${index}`);
    };
    for (const w of waiters.filter((x) => requests.length >= x.n)) {
      waiters.splice(waiters.indexOf(w), 1);
      w.resolve();
    }
    const step = await takeStep(request);
    if (step.kind === 'hang') return; // keep the socket open; close() or the client ends it
    if (step.delayMs !== undefined && step.delayMs > 0) await wait(step.delayMs);
    switch (step.kind) {
      case 'error':
        firstByte();
        send(res, step.status, step.body ?? errorBody(wire, step.status));
        return;
      case 'raw':
        firstByte();
        send(res, step.status ?? 200, step.body, step.contentType);
        return;
      case 'streamError':
      case 'text':
      case 'toolCalls':
      case 'blocked': {
        const answer = answerOf(step.kind === 'streamError' ? reply.text(step.text) : step, request.model, index, guessPromptTokens(raw));
        if (!request.stream) {
          firstByte();
          send(res, 200, step.kind === 'streamError' ? errorBody(wire, step.status) : successBody(wire, answer));
          return;
        }
        const frames = streamFrames(wire, answer, step.chunkChars ?? 4, step.kind === 'streamError' ? step.status : null);
        await writeStream(res, frames, step.chunkDelayMs ?? 0, step.stallAfterChunks, firstByte);
        return;
      }
    }
  };

  /** Writes an event stream frame by frame; with `stallAfter` it stops after that many text pieces and stays open. */
  const writeStream = async (res: ServerResponse, frames: Frame[], delayMs: number, stallAfter: number | undefined, firstByte: () => void): Promise<void> => {
    if (res.destroyed) return;
    res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', connection: 'keep-alive' });
    let pieces = 0;
    for (const f of frames) {
      if (res.destroyed) return;
      if (stallAfter !== undefined && f.textPiece && pieces >= stallAfter) return; // hold the connection open
      if (f.textPiece) pieces += 1;
      firstByte();
      res.write(f.text);
      if (delayMs > 0) await wait(delayMs);
    }
    res.end();
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      send(res, 500, { error: { message: `stub LLM failed: ${err instanceof Error ? err.message : String(err)}` } });
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;

  const api: StubLlm = {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    port,
    requests,
    get count() {
      return requests.length;
    },
    get pending() {
      return queue.length;
    },
    enqueue(step, match) {
      queue.push({ step, match });
    },
    enqueueAll(steps) {
      for (const step of steps) queue.push({ step, match: undefined });
    },
    respond(next) {
      responder = next ?? echoResponder;
    },
    reset() {
      queue.length = 0;
      requests.length = 0;
      responder = echoResponder;
    },
    waitForFirstByte(i) {
      const r = requests[i];
      if (r === undefined) return api.waitForCount(i + 1).then(() => api.waitForFirstByte(i));
      return whenMarked(`byte:${r.index}`, () => r.firstByteAt !== null);
    },
    waitForClose(i) {
      const r = requests[i];
      if (r === undefined) return api.waitForCount(i + 1).then(() => api.waitForClose(i));
      return whenMarked(`close:${r.index}`, () => r.closedEarly);
    },
    waitForCount(n) {
      if (requests.length >= n) return Promise.resolve();
      return new Promise((resolve) => waiters.push({ n, resolve }));
    },
    async close() {
      for (const t of timers) clearTimeout(t);
      timers.clear();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return api;
}

/**
 * One stub for a whole test file: started before all tests, reset before each, closed after all. The returned
 * object forwards to that stub, so a file reads `stub.enqueue(…)` without its own three hooks.
 */
export function useSharedStubLlm(): StubLlm {
  let current: StubLlm | null = null;
  beforeAll(async () => {
    current = await startStubLlm();
  });
  beforeEach(() => current?.reset());
  afterAll(async () => {
    await current?.close();
  });
  return new Proxy({} as StubLlm, {
    get: (_target, key) => {
      if (current === null) throw new Error('the shared stub LLM is used outside a test');
      return Reflect.get(current, key) as unknown;
    },
  });
}
