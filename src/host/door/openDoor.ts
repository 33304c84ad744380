/**
 * The door: an MCP server (Streamable HTTP, stateful sessions) on 127.0.0.1:{port}/mcp only, with exactly one
 * tool `ask_fuseforks({message})`. Guarded before the MCP layer by doorGuard (loopback Host/Origin, bearer
 * token, body size). Plain node:http rather than the SDK's express app: one route, no extra stack to load.
 * The SDK and zod are imported inside openDoor, so importing this module costs nothing until a door opens.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { FuseforksError, isFuseforksError } from '../../core/errors.js';
import type { PlanTaskState } from '../../core/events.js';
import { checkDoorRequest, DOOR_MAX_BODY_BYTES } from './doorGuard.js';

/** The single tool's name (pinned, with the count, by a test). */
export const DOOR_TOOL_NAME = 'ask_fuseforks';
/** Server info name shown to MCP clients. */
export const DOOR_SERVER_NAME = 'Fuseforks';
/**
 * Live MCP sessions kept at most; the oldest is closed beyond this (a client that never says goodbye). Well above
 * the external mailbox (1 served + 16 waiting), so a burst of callers never evicts one whose request still waits.
 */
export const DOOR_MAX_SESSIONS = 64;

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
  /** Unexpected failures (transport errors, a throwing askExternal that is not a FuseforksError). Never the token. */
  onError?: (error: unknown) => void;
  /** Server version shown to clients. */
  version?: string;
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
}

/** Opens the door; rejects with MCP_FAILED when the port cannot be bound (busy = ON but not listening). */
export async function openDoor(options: OpenDoorOptions): Promise<Door> {
  if (!/^[0-9a-f]{32}$/i.test(options.token)) {
    throw new FuseforksError('MCP_FAILED', 'the door needs a 32-hex token (mcp_server.json "token")', { fix: 'switch the door on again to generate a token' });
  }
  const [{ McpServer: McpServerClass }, { StreamableHTTPServerTransport: Transport }, { isInitializeRequest }, { z }] = await Promise.all([
    import('@modelcontextprotocol/sdk/server/mcp.js'),
    import('@modelcontextprotocol/sdk/server/streamableHttp.js'),
    import('@modelcontextprotocol/sdk/types.js'),
    import('zod'),
  ]);
  const onError = options.onError ?? (() => undefined);
  const sessions = new Map<string, Session>();
  let boundPort = options.port;

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
        try {
          const outcome = await options.askExternal(client, message, extra.signal);
          const meta = { state: outcome.state, tokens: outcome.tokens ?? null, cost: outcome.cost?.usd ?? null };
          return { content: [{ type: 'text' as const, text: outcome.answer }], _meta: { [DOOR_OUTCOME_META]: meta } };
        } catch (error) {
          // Pre-delivery refusals (busy, reception unset / missing / stopped) reach the client as a tool error.
          if (!isFuseforksError(error)) onError(error);
          const text = isFuseforksError(error) ? `[${error.code}] ${error.message}${error.fix ? ` (${error.fix})` : ''}` : 'the village could not take the request';
          const meta = isFuseforksError(error) ? { code: error.code, message: error.message, fix: error.fix ?? null } : { code: 'BUG', message: text, fix: null };
          return { content: [{ type: 'text' as const, text }], isError: true, _meta: { [DOOR_ERROR_META]: meta } };
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
        while (sessions.size > DOOR_MAX_SESSIONS) {
          const [oldest] = sessions.keys();
          if (oldest === undefined) break;
          const old = sessions.get(oldest);
          sessions.delete(oldest);
          void old?.transport.close();
        }
      },
    });
    const session: Session = { server, transport };
    transport.onclose = () => {
      if (transport.sessionId !== undefined) sessions.delete(transport.sessionId);
    };
    transport.onerror = onError;
    await server.connect(transport);
    return session;
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const verdict = checkDoorRequest(
      { url: req.url, host: req.headers.host, origin: req.headers.origin, authorization: req.headers.authorization, contentLength: req.headers['content-length'] },
      boundPort,
      options.token,
    );
    if (!verdict.ok) return bare(req, res, verdict.status);
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
      if (existing !== undefined) return existing.transport.handleRequest(req, res, parsed);
      if (sessionId === undefined && isInitializeRequest(parsed)) return (await newSession()).transport.handleRequest(req, res, parsed);
      return jsonRpcError(res, sessionId === undefined ? 400 : 404, -32000, 'No valid session: initialize first');
    }
    if ((req.method === 'GET' || req.method === 'DELETE') && existing !== undefined) return existing.transport.handleRequest(req, res);
    if (req.method === 'GET' || req.method === 'DELETE') return jsonRpcError(res, sessionId === undefined ? 400 : 404, -32000, 'No valid session');
    res.writeHead(405, { Allow: 'GET, POST, DELETE' }).end();
  };

  const http = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      onError(error);
      if (!res.headersSent) res.writeHead(500).end();
      else res.end();
    });
  });
  // A long ask (up to the ask timeout) must not be cut by Node's default request timeout.
  http.requestTimeout = 0;
  await new Promise<void>((resolve, reject) => {
    http.once('error', (error: NodeJS.ErrnoException) => {
      reject(new FuseforksError('MCP_FAILED', `the door cannot listen on 127.0.0.1:${options.port} (${error.code ?? error.message})`, {
        fix: error.code === 'EADDRINUSE' ? `another program uses port ${options.port}; choose another port in mcp_server.json` : 'check the port in mcp_server.json',
        details: { port: options.port },
        cause: error,
      }));
    });
    http.listen(options.port, '127.0.0.1', () => resolve());
  });
  http.on('error', onError);
  const address = http.address();
  boundPort = typeof address === 'object' && address !== null ? address.port : options.port;

  return {
    port: boundPort,
    close: async () => {
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
