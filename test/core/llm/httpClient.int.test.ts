/**
 * The model HTTP client (node:http with a keep-alive pool) against real loopback servers: connections are reused
 * between calls and never after a failure, a stale pooled connection is retried once on a fresh one, the byte cap
 * holds for whole, declared and streamed answers, the timeout bounds a silent server (a stream's restarts on every
 * chunk), an interrupt ends the request at once, and every failure is an LlmError with a reason and no secret.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { postJson, postStream, type PostJsonRequest, type SseEvent } from '../../../src/core/llm/httpClient.js';
import { freePort } from '../../support/freePort.js';

interface Loopback {
  url: string;
  /** TCP connections accepted so far. */
  connections: number;
  /** Request bodies received, in order. */
  bodies: string[];
  /** Resolves when the client has closed the connection of request `i` (0-based). */
  closed(i: number): Promise<void>;
}

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
  }
});

async function serve(handle: (req: IncomingMessage, res: ServerResponse, n: number) => void): Promise<Loopback> {
  const sockets: Promise<void>[] = [];
  const state: Loopback = { url: '', connections: 0, bodies: [], closed: (i) => sockets[i] ?? Promise.reject(new Error(`no request ${i}`)) };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    const n = state.bodies.length;
    state.bodies.push('');
    sockets.push(new Promise<void>((r) => req.socket.once('close', () => r())));
    res.on('error', () => undefined);
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      state.bodies[n] = Buffer.concat(chunks).toString('utf8');
      handle(req, res, n);
    });
  });
  server.on('connection', (_socket: Socket) => void (state.connections += 1));
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/chat`;
  return state;
}

const json = (res: ServerResponse, status: number, value: unknown): void => {
  const body = JSON.stringify(value);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }).end(body);
};

const SECRET = 'sk-live-0123456789abcdef';
const call = (url: string, over: Partial<PostJsonRequest> = {}): PostJsonRequest => ({
  backend: 'openai-compat',
  url,
  headers: { authorization: `Bearer ${SECRET}` },
  body: { question: 'what?' },
  timeoutSecs: 5,
  secret: SECRET,
  ...over,
});
const failure = (p: Promise<unknown>): Promise<{ code?: string; name?: string; message: string; retryable?: boolean; fix?: string }> =>
  p.then(
    () => {
      throw new Error('expected a failure');
    },
    (e: unknown) => e as { message: string },
  );

describe('keep-alive', () => {
  it('reuses one connection for calls in a row, sends the body and headers, and parses the answer', async () => {
    const s = await serve((req, res, n) => json(res, 200, { n, auth: req.headers.authorization === `Bearer ${SECRET}`, type: req.headers['content-type'] }));
    expect(await postJson(call(s.url))).toEqual({ n: 0, auth: true, type: 'application/json' });
    expect(await postJson(call(s.url))).toEqual({ n: 1, auth: true, type: 'application/json' });
    expect(await postJson(call(s.url))).toMatchObject({ n: 2 });
    expect(JSON.parse(s.bodies[0]!)).toEqual({ question: 'what?' });
    expect(s.connections).toBe(1);
  });

  it('never reuses a connection a failure left half read: the next call opens a new one', async () => {
    const s = await serve((_req, res, n) => {
      if (n === 0) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{"a":"'.padEnd(4096, 'x'));
        return; // more never comes
      }
      json(res, 200, { n });
    });
    await expect(postJson(call(s.url, { maxResponseBytes: 1024 }))).rejects.toMatchObject({ code: 'LLM_RESPONSE_TOO_LARGE' });
    await s.closed(0);
    expect(await postJson(call(s.url))).toEqual({ n: 1 });
    expect(s.connections).toBe(2);
  });

  it('a pooled connection the server dropped meanwhile is retried once on a fresh one', async () => {
    const s = await serve((req, res, n) => {
      // The second request arrives on the kept-alive socket, which the "server" then drops without an answer.
      if (n === 1) return void req.socket.destroy();
      json(res, 200, { n });
    });
    expect(await postJson(call(s.url))).toEqual({ n: 0 });
    expect(await postJson(call(s.url))).toEqual({ n: 2 });
    expect(s.connections).toBe(2);
  });
});

describe('the byte cap', () => {
  it('a whole answer past maxResponseBytes is LLM_RESPONSE_TOO_LARGE, not retryable, and the connection is closed', async () => {
    const s = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const chunk = 'x'.repeat(64 * 1024);
      const more = (): void => {
        while (res.write(chunk)) {
          /* keep flooding until the socket pushes back or closes */
        }
        res.once('drain', more);
      };
      more();
    });
    const err = await failure(postJson(call(s.url, { maxResponseBytes: 256 * 1024 })));
    expect(err).toMatchObject({ code: 'LLM_RESPONSE_TOO_LARGE', retryable: false });
    expect(err.message).toMatch(/openai-compat sent more than 262144 bytes/);
    expect(err.fix).toMatch(/maxResponseBytes/);
    await s.closed(0);
  });

  it('a declared Content-Length past the cap is refused before the body', async () => {
    const s = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(300 * 1024 * 1024) });
      res.write('{"choices":[');
    });
    const err = await failure(postJson(call(s.url)));
    expect(err).toMatchObject({ code: 'LLM_RESPONSE_TOO_LARGE' });
    expect(err.message).toMatch(/\(0 read/);
  });

  it('an event stream that never ends is cut at the cap too', async () => {
    const s = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const timer = setInterval(() => res.write(`data: ${'y'.repeat(4000)}\n\n`), 1);
      res.on('close', () => clearInterval(timer));
    });
    const events: SseEvent[] = [];
    const err = await failure(postStream({ ...call(s.url, { maxResponseBytes: 64 * 1024 }), onEvent: (e) => void events.push(e) }));
    expect(err).toMatchObject({ code: 'LLM_RESPONSE_TOO_LARGE' });
    expect(events.length).toBeGreaterThan(0);
    await s.closed(0);
  });

  it('under the cap, characters split across chunks come through intact, whole and streamed', async () => {
    const bytes = Buffer.from('{"t":"héllo wörld ✓"}', 'utf8');
    const sse = Buffer.from('data: {"t":"héllo ✓"}\n\ndata: [DONE]\n\n', 'utf8');
    const s = await serve((_req, res, n) => {
      const body = n === 0 ? bytes : sse;
      res.writeHead(200, { 'content-type': n === 0 ? 'application/json' : 'text/event-stream' });
      // One byte at a time: every multi-byte character is split.
      let i = 0;
      const next = (): void => void (i < body.length ? res.write(body.subarray(i, ++i), () => setImmediate(next)) : res.end());
      next();
    });
    expect(await postJson(call(s.url))).toEqual({ t: 'héllo wörld ✓' });
    const events: SseEvent[] = [];
    expect(await postStream({ ...call(s.url), onEvent: (e) => void events.push(e) })).toEqual({ kind: 'stream' });
    expect(events.map((e) => e.data)).toEqual(['{"t":"héllo ✓"}', '[DONE]']);
  });
});

describe('timeouts and interrupts', () => {
  it('a server that never answers is LLM_TIMEOUT (retryable), and the connection is closed', async () => {
    const s = await serve(() => undefined);
    const err = await failure(postJson(call(s.url, { timeoutSecs: 0.2 })));
    expect(err).toMatchObject({ code: 'LLM_TIMEOUT', retryable: true });
    expect(err.message).toMatch(/timed out after 0.2 s/);
    await s.closed(0);
  });

  it('a stream that keeps sending is not cut by its timeout; one that goes silent is', async () => {
    const s = await serve((_req, res, n) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      let sent = 0;
      // 8 events 60 ms apart (longer in all than the 0.25 s timeout), then the first ends, the second goes silent.
      const timer = setInterval(() => {
        res.write(`data: ${sent}\n\n`);
        sent += 1;
        if (sent === 8) {
          clearInterval(timer);
          if (n === 0) res.end();
        }
      }, 60);
      res.on('close', () => clearInterval(timer));
    });
    const events: SseEvent[] = [];
    expect(await postStream({ ...call(s.url, { timeoutSecs: 0.25 }), onEvent: (e) => void events.push(e) })).toEqual({ kind: 'stream' });
    expect(events).toHaveLength(8);
    const err = await failure(postStream({ ...call(s.url, { timeoutSecs: 0.25 }), onEvent: () => undefined }));
    expect(err).toMatchObject({ code: 'LLM_TIMEOUT' });
  });

  it('an interrupt ends a waiting request at once with the abort reason, and closes the connection', async () => {
    let arrived: () => void = () => undefined;
    const waiting = new Promise<void>((r) => (arrived = r));
    const s = await serve(() => arrived());
    const ctl = new AbortController();
    const pending = failure(postJson(call(s.url, { timeoutSecs: 30, signal: ctl.signal })));
    await waiting;
    ctl.abort();
    expect((await pending).name).toBe('AbortError');
    await s.closed(0);
  });

  it('an interrupt mid-stream closes the stream; an already aborted signal sends nothing', async () => {
    const s = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: first\n\n');
    });
    const ctl = new AbortController();
    const opened: boolean[] = [];
    const err = await failure(postStream({ ...call(s.url, { signal: ctl.signal }), onOpen: () => void opened.push(true), onEvent: () => ctl.abort() }));
    expect(err.name).toBe('AbortError');
    expect(opened).toEqual([true]);
    await s.closed(0);
    await expect(postJson(call(s.url, { signal: ctl.signal }))).rejects.toMatchObject({ name: 'AbortError' });
    expect(s.bodies).toHaveLength(1);
  });
});

describe('error mapping', () => {
  it('a non-2xx answer is LLM_API with the status and the body, the key scrubbed; 5xx retryable, 4xx not', async () => {
    const s = await serve((_req, res, n) => json(res, n === 0 ? 401 : 503, { error: { message: `bad key ${SECRET}` } }));
    const unauthorized = await failure(postJson(call(s.url)));
    expect(unauthorized).toMatchObject({ code: 'LLM_API', status: 401, retryable: false });
    expect(unauthorized.message).toContain('HTTP 401');
    expect(unauthorized.message).toContain('bad key [redacted]');
    expect(unauthorized.message).not.toContain(SECRET);
    const streamed = await failure(postStream({ ...call(s.url), onEvent: () => undefined }));
    expect(streamed).toMatchObject({ code: 'LLM_API', status: 503, retryable: true });
  });

  it('a refused connection, a reply cut short and a redirect say why; none carries the key', async () => {
    const refused = await failure(postJson(call(`http://127.0.0.1:${await freePort()}/v1`)));
    expect(refused).toMatchObject({ code: 'LLM_HTTP', retryable: true });
    expect(refused.message).toMatch(/ECONNREFUSED/);
    const s = await serve((_req, res, n) => {
      if (n === 0) {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
        res.write('{"partial":');
        setTimeout(() => res.socket?.destroy(), 20);
        return;
      }
      res.writeHead(308, { location: 'http://127.0.0.1:1/elsewhere' }).end();
    });
    const cut = await failure(postJson(call(s.url)));
    expect(cut).toMatchObject({ code: 'LLM_HTTP', retryable: true });
    expect(cut.message).toMatch(/openai-compat request failed: .+/);
    const redirected = await failure(postJson(call(s.url)));
    expect(redirected).toMatchObject({ code: 'LLM_API', status: 308 });
    for (const e of [refused, cut, redirected]) expect(JSON.stringify(e) + e.message).not.toContain(SECRET);
  });

  it('a 2xx body that is not JSON is LLM_PARSE giving its length, never the body; a bad URL or protocol is LLM_HTTP', async () => {
    const s = await serve((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"half'));
    const err = await failure(postJson(call(s.url)));
    expect(err).toMatchObject({ code: 'LLM_PARSE', retryable: false });
    expect(err.message).toContain('not JSON (6 chars)');
    expect(err.message).not.toContain('half');
    await expect(postJson(call('not a url'))).rejects.toMatchObject({ code: 'LLM_HTTP' });
    await expect(postJson(call('ftp://127.0.0.1/v1'))).rejects.toMatchObject({ code: 'LLM_HTTP', message: expect.stringMatching(/unsupported protocol ftp:/) });
  });

  it('a stream the provider answers with one JSON body (a proxy ignoring `stream`) comes back as that body', async () => {
    const s = await serve((req, res) => json(res, 200, { accept: req.headers.accept }));
    expect(await postStream({ ...call(s.url), onEvent: () => undefined })).toEqual({ kind: 'json', json: { accept: 'text/event-stream' } });
  });
});
