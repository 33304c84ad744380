/**
 * One live connection to one MCP server (stdio child or Streamable HTTP), made with the SDK's Client.
 * The SDK is imported dynamically on the first connect, so a village without MCP never loads it (≈0.3 s of
 * cold start, ARCHITECTURE "Cold start"). Connect + tools/list share one deadline (30 s by default).
 * An HTTP server gets the SDK's OAuth client (McpOAuthProvider over the secret store): a 401 runs the SDK's `auth`
 * flow (refresh, step-up); one that needs a person's login fails as MCP_AUTH_REQUIRED. A server's question
 * (elicitation/create, form mode) goes to `elicit` when a person is there, else gets the entry's headless answer.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { FuseforksError } from '../../core/errors.js';
import { mcpChildEnv } from './mcpChildEnv.js';
import type { McpServerConfig } from './mcpConfig.js';
import type { McpCallResultLike } from './mcpResult.js';
import { LineSplitter } from './stderrLines.js';
import { mcpAuthRequired, mcpCallFailed, mcpConnectFailed, sandboxUnavailable } from '../../core/errors/hostErrors.js';
import type { SecretStore } from '../../core/secrets/secretStore.js';
import { McpOAuthProvider } from './mcpOAuthProvider.js';
import { headlessElicitAnswer, type McpElicitAnswer, type McpElicitQuestion } from './mcpElicitation.js';
import { sandboxedSpawn } from '../../core/sandbox/sandboxedCommand.js';
import { sandboxEnv } from '../../core/sandbox/sandboxPlan.js';
import { defaultRunLimits } from '../../core/tools/runPolicy.js';

/** Connect + tools/list bound per server (ms), as in the original (`CONNECT_TIMEOUT`). */
export const MCP_CONNECT_TIMEOUT_MS = 30_000;
/** Bound of one tools/call (ms); long tools are normal for MCP, a dead server is not. */
export const MCP_CALL_TIMEOUT_MS = 600_000;

/** A tool as the server lists it (its own name, not yet prefixed). */
export interface McpToolInfo {
  name: string;
  description: string | undefined;
  inputSchema: unknown;
}

/** How a connection is made. */
export interface McpConnectOptions {
  timeoutMs?: number;
  /** When set, a stdio child's stderr is piped and each line goes here as a `{"type":"log",…}` JSON line. */
  jsonlStderr?: (jsonLine: string) => void;
  /** Parent environment for the allowlist (default process.env). */
  parentEnv?: Readonly<Record<string, string | undefined>>;
  clientVersion?: string;
  /** Where OAuth tokens of HTTP servers are kept; without it an HTTP server has no OAuth (a 401 fails the connect). */
  secretStore?: SecretStore;
  /** An OAuth provider to use instead of a connect-mode one (`mcp login`). */
  authProvider?: McpOAuthProvider;
  /** A person who can answer a server's question; absent = headless (the entry's `elicitation` answer, or decline). */
  elicit?: (question: McpElicitQuestion) => Promise<McpElicitAnswer>;
  /** Told of each headless answer (the reason is logged; the question's text may be shown, never a secret). */
  onHeadlessElicit?: (server: string, answer: McpElicitAnswer, reason: string) => void;
}

let sdkPromise: Promise<Sdk> | null = null;
let sdkLoaded = false;

interface Sdk {
  Client: typeof import('@modelcontextprotocol/sdk/client/index.js').Client;
  StdioClientTransport: typeof import('@modelcontextprotocol/sdk/client/stdio.js').StdioClientTransport;
  DEFAULT_INHERITED_ENV_VARS: readonly string[];
  StreamableHTTPClientTransport: typeof import('@modelcontextprotocol/sdk/client/streamableHttp.js').StreamableHTTPClientTransport;
  McpError: typeof import('@modelcontextprotocol/sdk/types.js').McpError;
  ElicitRequestSchema: typeof import('@modelcontextprotocol/sdk/types.js').ElicitRequestSchema;
  UnauthorizedError: typeof import('@modelcontextprotocol/sdk/client/auth.js').UnauthorizedError;
}

/** True once any connect has loaded the SDK in this process (tests and the cold-start bench read it). */
export function mcpSdkLoaded(): boolean {
  return sdkLoaded;
}

function loadSdk(): Promise<Sdk> {
  sdkPromise ??= Promise.all([
    import('@modelcontextprotocol/sdk/client/index.js'),
    import('@modelcontextprotocol/sdk/client/stdio.js'),
    import('@modelcontextprotocol/sdk/client/streamableHttp.js'),
    import('@modelcontextprotocol/sdk/types.js'),
    import('@modelcontextprotocol/sdk/client/auth.js'),
  ]).then(([client, stdio, http, types, auth]) => {
    sdkLoaded = true;
    return {
      Client: client.Client,
      StdioClientTransport: stdio.StdioClientTransport,
      DEFAULT_INHERITED_ENV_VARS: stdio.DEFAULT_INHERITED_ENV_VARS,
      StreamableHTTPClientTransport: http.StreamableHTTPClientTransport,
      McpError: types.McpError,
      ElicitRequestSchema: types.ElicitRequestSchema,
      UnauthorizedError: auth.UnauthorizedError,
    };
  });
  return sdkPromise;
}

/** A connected server: its tools, its child's pid (stdio), calls, close. */
export class McpConnection {
  private constructor(
    readonly config: McpServerConfig,
    readonly tools: readonly McpToolInfo[],
    private readonly client: Client,
    private readonly transport: Transport & { pid?: number | null },
    private readonly sdk: Sdk,
  ) {}

  /** The stdio child's pid, or null (HTTP, or already closed). */
  get pid(): number | null {
    return this.transport.pid ?? null;
  }

  /** Connects and lists tools within the deadline; throws MCP_FAILED (the child is killed on failure). */
  static async open(config: McpServerConfig, options: McpConnectOptions = {}): Promise<McpConnection> {
    const sdk = await loadSdk();
    const timeoutMs = options.timeoutMs ?? MCP_CONNECT_TIMEOUT_MS;
    const authProvider = config.kind !== 'http' ? undefined : (options.authProvider ?? (options.secretStore === undefined ? undefined : new McpOAuthProvider(config, options.secretStore)));
    const transport = makeTransport(sdk, config, options, authProvider);
    // The pid is taken as soon as the child exists: on a failed connect the SDK forgets it before we can ask.
    let pid: number | null = null;
    const start = transport.start.bind(transport);
    transport.start = async () => {
      await start();
      pid = transport.pid ?? null;
    };
    // Form-mode elicitation only; applyDefaults lets the SDK fill a schema's defaults into an accepted answer.
    const client = new sdk.Client({ name: 'fuseforks', version: options.clientVersion ?? '0.0.0' }, { capabilities: { elicitation: { form: { applyDefaults: true } } } });
    client.setRequestHandler(sdk.ElicitRequestSchema, async (request) => {
      const question: McpElicitQuestion = { server: config.name, params: request.params };
      if (options.elicit !== undefined) return options.elicit(question);
      const { answer, reason } = headlessElicitAnswer(config.elicitation, request.params);
      options.onHeadlessElicit?.(config.name, answer, reason);
      return answer;
    });
    const deadline = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    const expired = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        deadline.abort();
        reject(mcpConnectFailed(config.name, { timeoutSecs: Math.round(timeoutMs / 1000) }));
      }, timeoutMs);
    });
    try {
      const tools = await Promise.race([connectAndList(client, transport, deadline.signal, timeoutMs), expired]);
      return new McpConnection(config, tools, client, transport, sdk);
    } catch (error) {
      await transport.close().catch(() => undefined);
      if (pid !== null) await ensureGone(pid);
      if (error instanceof FuseforksError) throw error;
      if (authProvider !== undefined && (error instanceof sdk.UnauthorizedError || authProvider.authorizationUrl !== null)) {
        throw mcpAuthRequired(config.name, authProvider.tokens() === undefined ? 'no login is stored' : 'the stored login no longer works (expired or revoked)');
      }
      throw mcpConnectFailed(config.name, { why: messageOf(error) }, error);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Calls one tool by its server-side name; a JSON-RPC error from the server comes back as an error result. */
  async call(tool: string, args: Record<string, unknown>, signal: AbortSignal, timeoutMs = MCP_CALL_TIMEOUT_MS): Promise<McpCallResultLike> {
    // One signal per call: the SDK leaves a listener on the signal it gets, and a turn reuses its signal.
    const own = new AbortController();
    const forward = (): void => own.abort(signal.reason);
    if (signal.aborted) own.abort(signal.reason);
    else signal.addEventListener('abort', forward, { once: true });
    try {
      return await this.client.callTool({ name: tool, arguments: args }, undefined, { signal: own.signal, timeout: timeoutMs });
    } catch (error) {
      const transportLevel = !(error instanceof this.sdk.McpError) || error.code === -32000 || error.code === -32001;
      if (!transportLevel && !signal.aborted) {
        return { content: [{ type: 'text', text: messageOf(error) }], isError: true };
      }
      throw mcpCallFailed(this.config.name, tool, signal.aborted ? null : messageOf(error), error);
    } finally {
      signal.removeEventListener('abort', forward);
    }
  }

  /** Closes the session; a stdio child gets stdin closed, then SIGTERM, then SIGKILL (SDK, ≤ 4 s). */
  async close(): Promise<void> {
    await this.client.close().catch(() => undefined);
    await this.transport.close().catch(() => undefined);
  }
}

async function connectAndList(client: Client, transport: Transport, signal: AbortSignal, timeoutMs: number): Promise<McpToolInfo[]> {
  await client.connect(transport, { signal, timeout: timeoutMs });
  const tools: McpToolInfo[] = [];
  let cursor: string | undefined;
  // Pages are followed to the end; a server that pages forever still meets the deadline.
  do {
    const page = await client.listTools(cursor === undefined ? {} : { cursor }, { signal, timeout: timeoutMs });
    for (const t of page.tools) tools.push({ name: t.name, description: t.description, inputSchema: t.inputSchema });
    cursor = page.nextCursor;
  } while (cursor !== undefined && !signal.aborted);
  return tools;
}

/** The rlimits of a sandboxed MCP server: those of a run (it lives as long as the village, so no CPU cut below a day). */
const MCP_SANDBOX_LIMITS = { memoryBytes: defaultRunLimits().memoryMb * 1024 * 1024, cpuSecs: 86_400, fileBytes: defaultRunLimits().fileMb * 1024 * 1024 };

function makeTransport(sdk: Sdk, config: McpServerConfig, options: McpConnectOptions, authProvider: McpOAuthProvider | undefined): Transport & { pid?: number | null } {
  if (config.kind === 'http') {
    return new sdk.StreamableHTTPClientTransport(new URL(config.url), { requestInit: { headers: config.headers }, ...(authProvider === undefined ? {} : { authProvider }) });
  }
  const parentEnv = options.parentEnv ?? process.env;
  let command = config.command;
  let args = config.args;
  let env = mcpChildEnv(config.env, parentEnv, process.platform, sdk.DEFAULT_INHERITED_ENV_VARS);
  if (config.sandbox !== null) {
    // The sandbox of `run` with no work folder: the system folders, `readOnly`, an empty home; only the declared env.
    const spawn = sandboxedSpawn({
      policy: { ...MCP_SANDBOX_LIMITS, network: config.sandbox.network, writable: false },
      workDir: null,
      dataDir: null,
      readOnly: config.sandbox.readOnly,
      command: config.command,
      args: config.args,
      extraEnv: config.env,
    });
    if (!spawn.ok) throw sandboxUnavailable(`${spawn.missing.detail} (MCP server ${config.name})`, spawn.missing.fix);
    command = spawn.file;
    args = spawn.args;
    env = { ...Object.fromEntries(sdk.DEFAULT_INHERITED_ENV_VARS.map((name) => [name, undefined])), ...sandboxEnv(parentEnv, config.env) };
  }
  const sink = options.jsonlStderr;
  const transport = new sdk.StdioClientTransport({
    command,
    args,
    // The SDK merges its own default variables first; the names it would add are masked as undefined.
    env: env as Record<string, string>,
    stderr: sink === undefined ? 'inherit' : 'pipe',
  });
  if (sink !== undefined) {
    const source = `mcp:${config.name}`;
    const splitter = new LineSplitter((line) => {
      if (line !== '') sink(JSON.stringify({ type: 'log', source, message: line }));
    });
    const stream = transport.stderr;
    stream?.on('data', (chunk: Buffer) => splitter.push(chunk));
    stream?.on('end', () => splitter.flush());
  }
  return transport;
}

/** SIGTERM, then SIGKILL after 2 s: a child that failed to connect must not outlive the attempt. */
async function ensureGone(pid: number): Promise<void> {
  const alive = (): boolean => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  if (!alive()) return;
  try {
    process.kill(pid, 'SIGTERM');
  } catch {
    return;
  }
  for (let waited = 0; waited < 2000 && alive(); waited += 50) await new Promise((r) => setTimeout(r, 50));
  if (alive()) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
