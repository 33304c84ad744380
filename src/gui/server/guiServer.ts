/**
 * The GUI server: a node:http server on 127.0.0.1 only, started BEFORE the host boots so the page can show the
 * boot (and a boot failure such as LOCK_HELD) on its overlay. It serves the built client, the JSON API
 * (`apiRoutes`) and the one event stream (`/api/events`, SSE). Every request passes `guardRequest`: a foreign
 * Host or Origin → 403, no launch token → 401.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { toWire } from '../../core/errors.js';
import { matchRoute, statusForCode, type Body } from './apiRoutes.js';
import { BootGate } from './bootGate.js';
import { EventStreams } from './eventStream.js';
import type { GuiVillage } from './guiVillage.js';
import { guardRequest, TOKEN_HEADER } from './requestGuard.js';
import { DEFAULT_CLIENT_DIR, readAsset } from './staticAssets.js';
import { bodyNotObject, bodyTooLarge, guiUnauthorized } from '../../core/errors/requestErrors.js';
import { villageNotOpenYet } from '../../core/errors/runtimeErrors.js';
import { guiCannotListen } from '../../core/errors/configErrors.js';
import { ATTACHMENT_ROUTE, sendAttachment } from './attachmentRoute.js';
import { editBaseOf } from './editBaseHeader.js';

/** Largest request body accepted (bytes): world edits and mcp.json are small. */
export const MAX_BODY_BYTES = 1 << 20;

/** How to start the GUI server. */
export interface GuiServerOptions {
  /** Port on 127.0.0.1; 0 (default) = any free port. */
  port?: number;
  /** Boots the village; called once the server listens. A rejection is shown on the boot overlay. */
  boot: () => Promise<GuiVillage>;
  /** Built client folder (default dist/gui/client). */
  clientDir?: string;
}

/** A listening GUI server. */
export interface GuiServer {
  /** `http://127.0.0.1:PORT/?t=TOKEN` — the one URL that opens this launch's page. */
  readonly url: string;
  readonly port: number;
  readonly token: string;
  /** Resolves when the boot finished (ready or failed). */
  readonly booted: Promise<void>;
  readonly gate: BootGate<GuiVillage>;
  /** Ends event streams, stops listening, closes the village (stops agents, releases the lock). */
  close(): Promise<void>;
}

/** Starts listening, then boots the village behind it. */
export async function startGuiServer(options: GuiServerOptions): Promise<GuiServer> {
  const token = randomBytes(24).toString('base64url');
  const gate = new BootGate<GuiVillage>();
  const streams = new EventStreams();
  const clientDir = options.clientDir ?? DEFAULT_CLIENT_DIR;
  let port = 0;
  const server = createServer((req, res) => {
    handle(req, res, { token, port, gate, streams, clientDir }).catch((error: unknown) => sendError(res, error));
  });
  await listen(server, options.port ?? 0);
  port = (server.address() as AddressInfo).port;
  const booted = gate.run(options.boot);
  let closing: Promise<void> | null = null;
  return {
    url: `http://127.0.0.1:${port}/?t=${token}`,
    port,
    token,
    booted,
    gate,
    close: () =>
      (closing ??= (async () => {
        streams.close();
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
        await booted;
        await gate.ready?.close();
      })()),
  };
}

interface Ctx {
  token: string;
  port: number;
  gate: BootGate<GuiVillage>;
  streams: EventStreams;
  clientDir: string;
}

async function handle(req: IncomingMessage, res: ServerResponse, ctx: Ctx): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  const path = url.pathname;
  const needsToken = path === '/' || path === '/index.html' || path.startsWith('/api/');
  const headerToken = req.headers[TOKEN_HEADER];
  const verdict = guardRequest({
    host: req.headers.host,
    origin: req.headers.origin,
    token: needsToken ? (typeof headerToken === 'string' ? headerToken : url.searchParams.get('t')) : ctx.token,
    port: ctx.port,
    expected: ctx.token,
  });
  if (!verdict.ok) {
    return sendJson(res, verdict.status, toWire(guiUnauthorized(verdict.reason)));
  }
  if (!path.startsWith('/api/')) {
    if (req.method !== 'GET' && req.method !== 'HEAD') return sendJson(res, 405, { code: 'INVALID_REQUEST', message: 'method not allowed' });
    const asset = await readAsset(ctx.clientDir, path);
    if (asset === null) return sendJson(res, 404, { code: 'INVALID_REQUEST', message: `no file ${path}` });
    res.writeHead(200, {
      'content-type': asset.type,
      'cache-control': path.startsWith('/assets/') ? 'public, max-age=31536000, immutable' : 'no-store',
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      'content-security-policy':
        "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'",
    });
    res.end(req.method === 'HEAD' ? undefined : asset.body);
    return;
  }
  if (path === '/api/boot' && req.method === 'GET') return sendJson(res, 200, ctx.gate.current);
  const village = ctx.gate.ready;
  if (village === null) {
    return sendJson(res, 503, toWire(villageNotOpenYet()));
  }
  if (path === '/api/events' && req.method === 'GET') {
    ctx.streams.attach(res, (listener) => village.subscribe(listener));
    return;
  }
  if (path.startsWith(ATTACHMENT_ROUTE)) return sendAttachment(res, req.method ?? 'GET', path, (id) => village.attachment(id));
  const route = matchRoute(req.method ?? 'GET', path);
  if (route === null) return sendJson(res, 404, { code: 'INVALID_REQUEST', message: `no API ${req.method} ${path}` });
  const body = req.method === 'GET' || req.method === 'DELETE' ? {} : await readBody(req, route.maxBody ?? MAX_BODY_BYTES);
  const ifMatch = req.headers['if-match'];
  const result = await route.handle(village, body, editBaseOf(typeof ifMatch === 'string' ? ifMatch : undefined));
  sendJson(res, 200, result ?? {});
}

async function readBody(req: IncomingMessage, limit: number): Promise<Body> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) {
      throw bodyTooLarge(limit);
    }
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (text.trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw bodyNotObject(false);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw bodyNotObject(true);
  }
  return value as Body;
}

function sendError(res: ServerResponse, error: unknown): void {
  const wire = toWire(error);
  if (res.headersSent) {
    res.end();
    return;
  }
  sendJson(res, statusForCode(wire.code), wire);
}

function sendJson(res: ServerResponse, status: number, value: unknown): void {
  const body = JSON.stringify(value);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
  });
  res.end(body);
}

function listen(server: Server, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        guiCannotListen(port, error.code, error),
      ),
    );
    server.listen(port, '127.0.0.1', () => resolve());
  });
}
