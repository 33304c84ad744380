/**
 * The door: an MCP server (Streamable HTTP, stateful sessions) on 127.0.0.1:{port}/mcp only, with exactly one
 * tool `ask_fuseforks({message})`. Guarded before the MCP layer by doorGuard (loopback Host/Origin, bearer
 * token, body size). Plain node:http rather than the SDK's express app: one route, no extra stack to load.
 * The SDK and zod are imported inside openDoor, so importing this module costs nothing until a door opens.
 *
 * Abuse limits (issue 19): the headers must arrive within 10 s and the whole request within 30 s (Node's own
 * timers, checked every second), so a client trickling its body cannot hold a connection for ever; an MCP session
 * with no request for 10 min is closed, and when 16 sessions are open a 17th is refused with a JSON-RPC error
 * saying so (nothing is evicted behind anyone's back); at shutdown, a tool call still waiting gets an error result
 * (DOOR_CLOSING) on its stream before the connection closes, and new requests get 503.
 *
 * Ghost turns (issue 28): a tool call whose HTTP connection closes before its answer was written is aborted — the
 * signal handed to askExternal fires, so a request still waiting in the village's external queue leaves it (the
 * model never sees it) and one already being worked on is cut. The SDK only aborts on an MCP cancel or a closed
 * session, not on a caller that simply went away, hence the per-request watch on the response's `close`.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isFuseforksError } from '../../core/errors.js';
import type { PlanTaskState } from '../../core/events.js';
import { checkDoorRequest, DOOR_MAX_BODY_BYTES } from './doorGuard.js';
import { isManagePath, serveManage, type DoorManagement } from './doorManage.js';
import { DOOR_PATH } from './doorSettings.js';
import { doorCannotListen, doorClosing, doorTokenMissing } from '../../core/errors/hostErrors.js';

/** The single tool's name (pinned, with the count, by a test). */
export const DOOR_TOOL_NAME = 'ask_fuseforks';
/** Server info name shown to MCP clients. */
export const DOOR_SERVER_NAME = 'Fuseforks';
/**
 * Live MCP sessions at most; beyond it an initialize is refused (503) until one closes or idles out. Well above the
 * external mailbox (1 served + 16 waiting), so a burst of callers is never refused while earlier requests still wait.
 */
export const DOOR_MAX_SESSIONS = 64;
/** Limits in ms (OpenDoorOptions.limits overrides them in tests). */
export const DOOR_LIMITS = {
  /** All request headers must have arrived by then (Node's headersTimeout). */
  headersMs: 10_000,
  /** The whole request (headers and body) must have arrived by then (Node's requestTimeout); the answer may take longer. */
  requestMs: 30_000,
  /** An MCP session with no request for this long is closed. */
  sessionIdleMs: 10 * 60_000,
  /** At shutdown, how long answered-with-an-error calls get to reach their clients before the sockets close. */
  closeFlushMs: 2_000,
};
export type DoorLimits = typeof DOOR_LIMITS;

/** What the door needs from the host: deliver to the reception and wait (the supervisor's external ask). */
export type AskExternal = (
  client: string,
  message: string,
  signal: AbortSignal,
) => Promise<{ answer: string; state: PlanTaskState; tokens?: unknown; cost?: { usd: number | null } }>;

/**
 * `_meta` key of a tool result carrying how the request ended ({state, tokens, cost}) or, for a refusal, the error
 * ({code, message, fix}): `fuseforks-cli ask` going through a serve's door maps it to the same exit code as a direct
 * ask. Other MCP clients see the text as before.
 */
export const DOOR_OUTCOME_META = 'fuseforks/outcome';
export const DOOR_ERROR_META = 'fuseforks/error';

/** Options of openDoor. `token` is required: a door without one never opens. */
export interface OpenDoorOptions {
  port: number;
  token: string;
  askExternal: AskExternal;
  /** The management routes (agents, run-now) for the CLI beside a serve; absent = they answer 404. */
  manage?: DoorManagement;
  /** Unexpected failures (transport errors, a throwing askExternal that is not a FuseforksError). Never the token. */
  onError?: (error: unknown) => void;
  /** Server version shown to clients. */
  version?: string;
  /** Test seam: shorter limits. */
  limits?: Partial<DoorLimits>;
}

/** An open door. */
export interface Door {
  /** The bound port (the given one, or the ephemeral one for port 0 in tests). */
  readonly port: number;
  close(): Promise<void>;
}

interface Session {
  server: McpServer;
  transport: StreamableHTTPServerTransport;
  /** Requests of this session still open (a long tool call or a GET stream keeps it from idling out). */
  open: number;
  /** When its last request ended (epoch ms). */
  lastSeenMs: number;
}

/** Opens the door; rejects with MCP_FAILED when the port cannot be bound (busy = ON but not listening). */
export async function openDoor(options: OpenDoorOptions): Promise<Door> {
  if (!/^[0-9a-f]{32}$/i.test(options.token)) {
    throw doorTokenMissing();
  }
  const [{ McpServer: McpServerClass }, { StreamableHTTPServerTransport: Transport }, { isInitializeRequest }, { z }] = await Promise.all([
    import('@modelcontextprotocol/sdk/server/mcp.js'),
    import('@modelcontextprotocol/sdk/server/streamableHttp.js'),
    import('@modelcontextprotocol/sdk/types.js'),
    import('zod'),
  ]);
  const onError = options.onError ?? (() => undefined);
  const limits: DoorLimits = { ...DOOR_LIMITS, ...options.limits };
  const sessions = new Map<string, Session>();
  let boundPort = options.port;
  let closing = false;
  // Resolved at shutdown: every tool call still waiting answers with DOOR_CLOSING instead of an empty stream.
  let shutdown: () => void = () => undefined;
  const shutdownNow = new Promise<'closing'>((resolve) => (shutdown = () => resolve('closing')));
  let calls = 0;
  let openPosts = 0;
  // Per tool call (session id + JSON-RPC id): aborted when the caller's connection closes before the answer was sent.
  const hangups = new Map<string, AbortController>();

  const makeServer = (): McpServer => {
    const server = new McpServerClass({ name: DOOR_SERVER_NAME, version: options.version ?? '0.0.0' });
    server.registerTool(
      DOOR_TOOL_NAME,
      {
        description: 'Ask this Fuseforks village a question. The reception agent answers, delegating inside the village as needed. One request at a time.',
        inputSchema: { message: z.string().describe('The request, in plain words') },
      },
      async ({ message }, extra) => {
        const client = server.server.getClientVersion()?.name ?? 'external';
        calls += 1;
        try {
          if (closing) throw doorClosing();
          const hangup = hangups.get(callKey(extra.sessionId, extra.requestId));
          const signal = hangup === undefined ? extra.signal : AbortSignal.any([extra.signal, hangup.signal]);
          const outcome = await Promise.race([options.askExternal(client, message, signal), shutdownNow]);
          if (outcome === 'closing') throw doorClosing();
          const meta = { state: outcome.state, tokens: outcome.tokens ?? null, cost: outcome.cost?.usd ?? null };
          return { content: [{ type: 'text' as const, text: outcome.answer }], _meta: { [DOOR_OUTCOME_META]: meta } };
        } catch (error) {
          // Pre-delivery refusals (busy, reception unset / missing / stopped) reach the client as a tool error.
          if (!isFuseforksError(error)) onError(error);
          const text = isFuseforksError(error) ? `[${error.code}] ${error.message}${error.fix ? ` (${error.fix})` : ''}` : 'the village could not take the request';
          const meta = isFuseforksError(error) ? { code: error.code, message: error.message, fix: error.fix ?? null } : { code: 'BUG', message: text, fix: null };
          return { content: [{ type: 'text' as const, text }], isError: true, _meta: { [DOOR_ERROR_META]: meta } };
        } finally {
          calls -= 1;
        }
      },
    );
    return server;
  };

  const newSession = async (): Promise<Session> => {
    const server = makeServer();
    const transport: StreamableHTTPServerTransport = new Transport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        sessions.set(id, session);
      },
    });
    const session: Session = { server, transport, open: 0, lastSeenMs: Date.now() };
    transport.onclose = () => {
      if (transport.sessionId !== undefined) sessions.delete(transport.sessionId);
    };
    transport.onerror = onError;
    await server.connect(transport);
    return session;
  };

  /** Closes sessions with nothing open and no request for `sessionIdleMs`. */
  const closeIdle = (): void => {
    const cutoff = Date.now() - limits.sessionIdleMs;
    for (const [id, s] of sessions) {
      if (s.open > 0 || s.lastSeenMs > cutoff) continue;
      sessions.delete(id);
      void s.transport.close().catch(() => undefined);
      void s.server.close().catch(() => undefined);
    }
  };
  const idleSweep = setInterval(closeIdle, Math.max(250, Math.min(60_000, Math.floor(limits.sessionIdleMs / 4))));
  idleSweep.unref();

  /** Counts the request against its session while it is open, so a long call or stream never idles out. */
  const track = (session: Session, req: IncomingMessage, res: ServerResponse): void => {
    const post = req.method === 'POST';
    session.open += 1;
    if (post) openPosts += 1;
    res.once('close', () => {
      session.open -= 1;
      if (post) openPosts -= 1;
      session.lastSeenMs = Date.now();
    });
  };

  /** Registers an abort for each tool call in `parsed`, fired when `res` closes before it finished (the caller left). */
  const watchHangup = (session: Session, parsed: unknown, res: ServerResponse): void => {
    const sessionId = session.transport.sessionId;
    const keys = toolCallIds(parsed).map((id) => callKey(sessionId, id));
    if (keys.length === 0) return;
    const controller = new AbortController();
    for (const key of keys) hangups.set(key, controller);
    res.once('close', () => {
      for (const key of keys) if (hangups.get(key) === controller) hangups.delete(key);
      if (!res.writableFinished) controller.abort();
    });
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    if (closing) {
      req.resume();
      return jsonRpcError(res, 503, -32000, `[DOOR_CLOSING] ${doorClosing().message}`);
    }
    const verdict = checkDoorRequest(
      { url: req.url, host: req.headers.host, origin: req.headers.origin, authorization: req.headers.authorization, contentLength: req.headers['content-length'] },
      boundPort,
      options.token,
    );
    if (!verdict.ok) return bare(req, res, verdict.status);
    const path = (req.url ?? '').split('?')[0] ?? '';
    if (path !== DOOR_PATH && isManagePath(path)) {
      if (options.manage === undefined) return bare(req, res, 404);
      const text = req.method === 'POST' ? await readBody(req) : '';
      if (text === 'tooLarge') return bare(req, res, 413);
      return serveManage(options.manage, path, req, text, res);
    }
    const sessionId = req.headers['mcp-session-id'];
    const existing = typeof sessionId === 'string' ? sessions.get(sessionId) : undefined;
    if (req.method === 'POST') {
      const body = await readBody(req);
      if (body === 'tooLarge') return bare(req, res, 413);
      let parsed: unknown;
      try {
        parsed = JSON.parse(body);
      } catch {
        return jsonRpcError(res, 400, -32700, 'Parse error: the body is not JSON');
      }
      if (existing !== undefined) {
        track(existing, req, res);
        watchHangup(existing, parsed, res);
        return existing.transport.handleRequest(req, res, parsed);
      }
      if (sessionId === undefined && isInitializeRequest(parsed)) {
        if (sessions.size >= DOOR_MAX_SESSIONS) closeIdle();
        if (sessions.size >= DOOR_MAX_SESSIONS) {
          return jsonRpcError(
            res,
            503,
            -32000,
            `The door already has ${DOOR_MAX_SESSIONS} open MCP sessions. Close one (HTTP DELETE /mcp with its Mcp-Session-Id) or retry after a session has been idle for ${Math.round(limits.sessionIdleMs / 60_000)} min.`,
          );
        }
        const session = await newSession();
        track(session, req, res);
        return session.transport.handleRequest(req, res, parsed);
      }
      return jsonRpcError(res, sessionId === undefined ? 400 : 404, -32000, 'No valid session: initialize first');
    }
    if ((req.method === 'GET' || req.method === 'DELETE') && existing !== undefined) {
      track(existing, req, res);
      return existing.transport.handleRequest(req, res);
    }
    if (req.method === 'GET' || req.method === 'DELETE') return jsonRpcError(res, sessionId === undefined ? 400 : 404, -32000, 'No valid session');
    res.writeHead(405, { Allow: 'GET, POST, DELETE' }).end();
  };

  const http = createServer(
    {
      headersTimeout: limits.headersMs,
      requestTimeout: limits.requestMs,
      // Node checks both timers on this interval (30 s by default), so a limit of seconds needs a finer one.
      connectionsCheckingInterval: Math.max(100, Math.min(1_000, Math.floor(limits.headersMs / 2))),
    },
    (req, res) => {
      handle(req, res).catch((error: unknown) => {
        onError(error);
        if (!res.headersSent) res.writeHead(500).end();
        else res.end();
      });
    },
  );
  await new Promise<void>((resolve, reject) => {
    http.once('error', (error: NodeJS.ErrnoException) => {
      reject(doorCannotListen(options.port, error.code, error.message, error));
    });
    http.listen(options.port, '127.0.0.1', () => resolve());
  });
  http.on('error', onError);
  const address = http.address();
  boundPort = typeof address === 'object' && address !== null ? address.port : options.port;

  return {
    port: boundPort,
    close: async () => {
      closing = true;
      clearInterval(idleSweep);
      // Calls still waiting answer DOOR_CLOSING on their streams; give those answers a moment to leave.
      shutdown();
      for (let waited = 0; (calls > 0 || openPosts > 0) && waited < limits.closeFlushMs; waited += 20) await new Promise((r) => setTimeout(r, 20));
      const open = [...sessions.values()];
      sessions.clear();
      await Promise.all(open.map(async (s) => {
        await s.transport.close().catch(() => undefined);
        await s.server.close().catch(() => undefined);
      }));
      await new Promise<void>((resolve) => {
        http.close(() => resolve());
        http.closeAllConnections();
      });
    },
  };
}

/** The map key of one tool call: its session and its JSON-RPC id. */
function callKey(sessionId: string | undefined, id: unknown): string {
  return `${sessionId ?? ''}\u0000${typeof id === 'string' ? `s:${id}` : `n:${String(id)}`}`;
}

/** The JSON-RPC ids of the `tools/call` requests in a POST body (one message or a batch). */
export function toolCallIds(parsed: unknown): Array<string | number> {
  const messages = Array.isArray(parsed) ? parsed : [parsed];
  const ids: Array<string | number> = [];
  for (const m of messages) {
    if (typeof m !== 'object' || m === null) continue;
    const { method, id } = m as { method?: unknown; id?: unknown };
    if (method === 'tools/call' && (typeof id === 'string' || typeof id === 'number')) ids.push(id);
  }
  return ids;
}

/** A bare status without a body (401 never says which check failed); the connection is closed after it. */
function bare(req: IncomingMessage, res: ServerResponse, status: number): void {
  const headers: Record<string, string> = { Connection: 'close' };
  if (status === 401) headers['WWW-Authenticate'] = 'Bearer';
  res.writeHead(status, headers).end();
  req.resume();
}

function jsonRpcError(res: ServerResponse, status: number, code: number, message: string): void {
  res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}

/** Reads a body up to DOOR_MAX_BODY_BYTES; beyond it stops reading and says so. */
function readBody(req: IncomingMessage): Promise<string | 'tooLarge'> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > DOOR_MAX_BODY_BYTES) {
        req.off('data', onData);
        resolve('tooLarge');
        return;
      }
      chunks.push(chunk);
    };
    req.on('data', onData);
    req.once('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.once('error', reject);
  });
}
