/**
 * The GUI server: a node:http server on 127.0.0.1 only, started BEFORE the host boots so the page can show the
 * boot (and a boot failure such as LOCK_HELD) on its overlay. It serves the built client (nothing secret: no
 * credential needed), the ticket trade (`POST /api/session`), the JSON API (`apiRoutes`) and the one event stream
 * (`/api/events`, SSE). Every request passes `guardRequest`: a foreign Host or Origin → 403, no session of this
 * launch → 401 (guiCredentials.ts says what counts). The launch's credentials never travel in a command line: the
 * browser is opened on a runtime file (runtimeFiles.ts), and the URL printed for a person works once.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { toWire } from '../../core/errors.js';
import { matchRoute, statusForCode, type Body } from './apiRoutes.js';
import { BootGate } from './bootGate.js';
import { EventStreams } from './eventStream.js';
import type { GuiVillage } from './guiVillage.js';
import { GuiCredentials, SESSION_HEADER, TOKEN_HEADER } from './guiCredentials.js';
import { guardRequest, type RouteAccess } from './requestGuard.js';
import type { GuiRuntimeFiles } from './runtimeFiles.js';
import { DEFAULT_CLIENT_DIR, readAsset } from './staticAssets.js';
import { bodyNotObject, bodyTooLarge, guiTicketSpent, guiUnauthorized } from '../../core/errors/requestErrors.js';
import { villageNotOpenYet } from '../../core/errors/runtimeErrors.js';
import { guiCannotListen } from '../../core/errors/configErrors.js';
import { ATTACHMENT_ROUTE, sendAttachment } from './attachmentRoute.js';
import { editBaseOf } from './editBaseHeader.js';

/** Largest request body accepted (bytes): world edits and mcp.json are small. */
export const MAX_BODY_BYTES = 1 << 20;

/** Where a page trades a ticket for a session. */
export const SESSION_ROUTE = '/api/session';

/** How to start the GUI server. */
export interface GuiServerOptions {
  /** Port on 127.0.0.1; 0 (default) = any free port. */
  port?: number;
  /** Boots the village; called once the server listens. A rejection is shown on the boot overlay. */
  boot: () => Promise<GuiVillage>;
  /** Built client folder (default dist/gui/client). */
  clientDir?: string;
  /** The private runtime folder's files (server file, browser page); null = none (nothing can open the browser). */
  runtime: GuiRuntimeFiles | null;
  /** Written into the server file. */
  dataDir: string;
}

/** A listening GUI server. */
export interface GuiServer {
  /** `http://127.0.0.1:PORT/` — no credential in it. */
  readonly address: string;
  readonly port: number;
  /** The runtime files, when the folder could be used. */
  readonly runtime: GuiRuntimeFiles | null;
  /** A new single-use URL (`…/#ticket=…`) for a person to paste into a browser. */
  ticketUrl(): string;
  /** Resolves when the boot finished (ready or failed). */
  readonly booted: Promise<void>;
  readonly gate: BootGate<GuiVillage>;
  /** Ends event streams, stops listening, removes the runtime files, closes the village (stops agents, releases the lock). */
  close(): Promise<void>;
}

/** Starts listening, writes the runtime files, then boots the village behind it. */
export async function startGuiServer(options: GuiServerOptions): Promise<GuiServer> {
  const gate = new BootGate<GuiVillage>();
  const streams = new EventStreams();
  const clientDir = options.clientDir ?? DEFAULT_CLIENT_DIR;
  const ctx: Ctx = { credentials: new GuiCredentials(0), gate, streams, clientDir, runtime: options.runtime, openTicket: null };
  const server = createServer((req, res) => {
    handle(req, res, ctx).catch((error: unknown) => sendError(res, error));
  });
  await listen(server, options.port ?? 0);
  const port = (server.address() as AddressInfo).port;
  ctx.credentials = new GuiCredentials(port);
  const address = `http://127.0.0.1:${port}/`;
  if (options.runtime !== null) {
    await options.runtime.writeServerFile({ port, url: address, token: ctx.credentials.token, dataDir: options.dataDir });
    ctx.openTicket = ctx.credentials.issueTicket();
    await options.runtime.writeOpenPage(port, ctx.openTicket);
  }
  const booted = gate.run(options.boot);
  let closing: Promise<void> | null = null;
  return {
    address,
    port,
    runtime: options.runtime,
    ticketUrl: () => `${address}#ticket=${ctx.credentials.issueTicket()}`,
    booted,
    gate,
    close: () =>
      (closing ??= (async () => {
        streams.close();
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
        await options.runtime?.remove().catch(() => undefined);
        await booted;
        await gate.ready?.close();
      })()),
  };
}

interface Ctx {
  credentials: GuiCredentials;
  gate: BootGate<GuiVillage>;
  streams: EventStreams;
  clientDir: string;
  runtime: GuiRuntimeFiles | null;
  /** The ticket the browser page carries now (rewritten once spent). */
  openTicket: string | null;
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return typeof value === 'string' ? value : undefined;
}

/** What a path needs (requestGuard.ts `RouteAccess`). */
function accessOf(method: string, path: string): RouteAccess {
  if (!path.startsWith('/api/')) return 'public';
  if (path === SESSION_ROUTE && method === 'POST') return 'ticket';
  if (path.startsWith(ATTACHMENT_ROUTE) && (method === 'GET' || method === 'HEAD')) return 'cookie';
  return 'session';
}

async function handle(req: IncomingMessage, res: ServerResponse, ctx: Ctx): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  const path = url.pathname;
  const method = req.method ?? 'GET';
  const access = accessOf(method, path);
  const presented = ctx.credentials.judge({
    token: header(req, TOKEN_HEADER),
    cookie: ctx.credentials.cookieOf(header(req, 'cookie')),
    key: header(req, SESSION_HEADER),
  });
  const verdict = guardRequest({ method, host: req.headers.host, origin: req.headers.origin, port: ctx.credentials.port, presented, access });
  if (!verdict.ok) {
    return sendJson(res, verdict.status, toWire(guiUnauthorized(verdict.reason)));
  }
  if (access === 'public') {
    if (method !== 'GET' && method !== 'HEAD') return sendJson(res, 405, { code: 'INVALID_REQUEST', message: 'method not allowed' });
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
    res.end(method === 'HEAD' ? undefined : asset.body);
    return;
  }
  if (access === 'ticket') return trade(req, res, ctx);
  if (path === '/api/boot' && method === 'GET') return sendJson(res, 200, ctx.gate.current);
  const village = ctx.gate.ready;
  if (village === null) {
    return sendJson(res, 503, toWire(villageNotOpenYet()));
  }
  if (path === '/api/events' && method === 'GET') {
    ctx.streams.attach(res, (listener) => village.subscribe(listener));
    return;
  }
  if (path.startsWith(ATTACHMENT_ROUTE)) return sendAttachment(res, method, path, (id) => village.attachment(id));
  const route = matchRoute(method, path);
  if (route === null) return sendJson(res, 404, { code: 'INVALID_REQUEST', message: `no API ${method} ${path}` });
  const body = method === 'GET' || method === 'DELETE' ? {} : await readBody(req, route.maxBody ?? MAX_BODY_BYTES);
  const result = await route.handle(village, body, editBaseOf(header(req, 'if-match')));
  sendJson(res, 200, result ?? {});
}

/** `POST /api/session {ticket}`: spends the ticket, answers the session's key and sets its cookie. */
async function trade(req: IncomingMessage, res: ServerResponse, ctx: Ctx): Promise<void> {
  const body = await readBody(req, 4096);
  const ticket = body.ticket;
  const fromPage = typeof ticket === 'string' && ticket === ctx.openTicket;
  const session = ctx.credentials.redeem(ticket);
  if (session === null) return sendJson(res, 401, toWire(guiTicketSpent()));
  if (fromPage && ctx.runtime !== null) {
    // The page file always holds a live ticket, so opening it again opens the GUI again.
    ctx.openTicket = ctx.credentials.issueTicket();
    await ctx.runtime.writeOpenPage(ctx.credentials.port, ctx.openTicket);
  }
  res.writeHead(200, {
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
    'set-cookie': ctx.credentials.setCookie(session),
  });
  res.end(JSON.stringify({ key: session.key }));
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
