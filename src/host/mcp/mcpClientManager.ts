/**
 * The village's MCP client side, on the main thread (agent workers stay free of the SDK and get plain
 * ToolSpecs and results). Shared servers (`workspace/mcp.json`) connect once and live for the process;
 * per-agent servers (`agents/{id}/mcp.json`) open on agent start and close on stop, never shared.
 * One server failing never blocks the others or boot: it becomes a status with an error and a diag note.
 * Per-agent tools win over shared ones with the same `{server}__{tool}` name.
 */
import { diagText, nullDiagSink, type DiagSink } from '../../core/diag.js';
import { isFuseforksError } from '../../core/errors.js';
import type { ToolSpec } from '../../core/llm/canonical.js';
import type { ToolReply } from '../../core/tools/contract.js';
import type { VillagePaths } from '../../core/village/paths.js';
import type { Language } from '../../core/world/types.js';
import { readMcpConfig, type McpServerConfig } from './mcpConfig.js';
import { McpConnection, type McpConnectOptions } from './mcpConnection.js';
import { renderMcpResult } from './mcpResult.js';
import { mcpToolDescription, mcpToolName, mcpToolParameters } from './mcpToolNames.js';
import { mcpToolNotConnected } from '../../core/errors/hostErrors.js';
import { MAX_TOOLS_PER_AGENT } from '../../core/turn/promptCaps.js';
import { admitMcpTools, ajvToolSchemaCheck, type McpToolCandidate } from './mcpToolSchema.js';

/** Status of one configured server (GUI list, `check`-like reports). `tools` are model-facing names. */
export interface McpServerStatus {
  name: string;
  /** null = shared mcp.json; else the agent whose own mcp.json lists it. */
  agentId: string | null;
  connected: boolean;
  tools: string[];
  error?: string;
}

/** What one load (shared, or one agent's) came to. `loadError` = the file itself was unreadable or broken. */
export interface McpLoadReport {
  statuses: McpServerStatus[];
  loadError: string | null;
}

/** Options of the manager; everything optional except the paths. */
export interface McpClientManagerOptions extends McpConnectOptions {
  paths: VillagePaths;
  diag?: DiagSink;
  /** Village language for model-facing result texts (read per call). */
  language?: () => Language;
}

interface RoutedTool {
  spec: ToolSpec;
  connection: McpConnection;
  serverTool: string;
}

interface ScopeState {
  connections: McpConnection[];
  tools: Map<string, RoutedTool>;
  statuses: McpServerStatus[];
  loadError: string | null;
}

const EMPTY_SCOPE = (): ScopeState => ({ connections: [], tools: new Map(), statuses: [], loadError: null });

/** Replaces secret-looking config values (env, headers, URL query) in a message before it is logged. */
function redact(message: string, config: McpServerConfig): string {
  const secrets = config.kind === 'stdio' ? Object.values(config.env) : [...Object.values(config.headers), new URL(config.url).search];
  let out = message;
  for (const s of secrets) if (s.length >= 4) out = out.split(s).join('***');
  return out.length > 300 ? `${out.slice(0, 299)}…` : out;
}

/** Owns every MCP connection of the village. */
export class McpClientManager {
  private shared: ScopeState = EMPTY_SCOPE();
  /** Per-agent scopes; `state` is null while the agent's servers are still connecting. */
  private readonly agents = new Map<string, { pending: Promise<ScopeState>; state: ScopeState | null }>();
  private readonly diag: DiagSink;
  private closed = false;
  /** One Ajv for every scope's tool schemas (made at the first tool). */
  private readonly schemaCheck = ajvToolSchemaCheck();

  constructor(private readonly opts: McpClientManagerOptions) {
    this.diag = opts.diag ?? nullDiagSink;
  }

  /** (Re)connects the shared servers; old shared connections are closed and their tools removed first. */
  async connectShared(): Promise<McpLoadReport> {
    const old = this.shared;
    this.shared = EMPTY_SCOPE();
    await closeScope(old);
    const next = await this.load(this.opts.paths.mcp, null);
    if (this.closed) {
      await closeScope(next);
      return { statuses: next.statuses, loadError: next.loadError };
    }
    this.shared = next;
    return { statuses: next.statuses, loadError: next.loadError };
  }

  /** Opens an agent's own servers (call on agent start). A broken file = load error and 0 per-agent tools. */
  async openAgent(agentId: string): Promise<McpLoadReport> {
    await this.closeAgent(agentId);
    let file: string;
    try {
      file = this.opts.paths.agentFile(agentId, 'mcp');
    } catch (error) {
      return { statuses: [], loadError: isFuseforksError(error) ? error.message : String(error) };
    }
    const entry: { pending: Promise<ScopeState>; state: ScopeState | null } = { pending: this.load(file, agentId), state: null };
    this.agents.set(agentId, entry);
    const state = await entry.pending;
    entry.state = state;
    // Closed (or replaced) while connecting: what was just made must not outlive the agent.
    if (this.closed || this.agents.get(agentId) !== entry) await closeScope(state);
    return { statuses: state.statuses, loadError: state.loadError };
  }

  /** Closes an agent's own servers (call on agent stop); kills their children. No-op when none are open. */
  async closeAgent(agentId: string): Promise<void> {
    const entry = this.agents.get(agentId);
    if (entry === undefined) return;
    this.agents.delete(agentId);
    await closeScope(await entry.pending);
  }

  /** The MCP tools an agent sees: shared, then its own; its own win on a name clash. */
  toolSpecsFor(agentId: string): ToolSpec[] {
    const own = this.settledAgent(agentId)?.tools ?? new Map<string, RoutedTool>();
    const out: ToolSpec[] = [];
    for (const [name, tool] of this.shared.tools) if (!own.has(name)) out.push(tool.spec);
    for (const tool of own.values()) out.push(tool.spec);
    return out;
  }

  /** Calls a model-facing tool name for an agent (own servers first). Transport failure → throws MCP_FAILED. */
  async callTool(agentId: string, name: string, args: Record<string, unknown>, signal: AbortSignal): Promise<ToolReply> {
    const tool = this.settledAgent(agentId)?.tools.get(name) ?? this.shared.tools.get(name);
    const language = this.opts.language?.() ?? 'en';
    if (tool === undefined) {
      throw mcpToolNotConnected(name, agentId);
    }
    const result = await tool.connection.call(tool.serverTool, args, signal);
    return renderMcpResult(result, language);
  }

  /** Statuses of the shared servers and, with an id, of that agent's own servers. */
  status(agentId?: string): McpServerStatus[] {
    const own = agentId === undefined ? [] : (this.settledAgent(agentId)?.statuses ?? []);
    return [...this.shared.statuses, ...own];
  }

  /** Closes every connection and kills every child; later opens close what they make at once. */
  async closeAll(): Promise<void> {
    this.closed = true;
    const scopes = [this.shared, ...(await Promise.all([...this.agents.values()].map((e) => e.pending)))];
    this.shared = EMPTY_SCOPE();
    this.agents.clear();
    await Promise.all(scopes.map(closeScope));
  }

  private settledAgent(agentId: string): ScopeState | undefined {
    return this.agents.get(agentId)?.state ?? undefined;
  }

  /** Reads one file and connects its enabled servers in parallel; never throws. */
  private async load(file: string, agentId: string | null): Promise<ScopeState> {
    const state = EMPTY_SCOPE();
    let configs: McpServerConfig[];
    try {
      configs = await readMcpConfig(file);
    } catch (error) {
      state.loadError = isFuseforksError(error) ? error.message : String(error);
      this.diag.note(
        'mcp load failed',
        {
          agent: agentId,
          code: isFuseforksError(error) ? error.code : 'CONFIG_IO',
          file: diagText(file),
          reason: diagText(state.loadError),
          fix: diagText(isFuseforksError(error) && error.fix ? error.fix : 'fix the file by hand; none of its servers connect until then'),
        },
        'warn',
      );
      return state;
    }
    const results = await Promise.all(configs.map((config) => this.connectOne(config, agentId)));
    const candidates: (McpToolCandidate & { description: string | undefined; connection: McpConnection })[] = [];
    const seen = new Set<string>();
    for (const { status, connection } of results) {
      state.statuses.push(status);
      if (connection === null) continue;
      state.connections.push(connection);
      for (const tool of connection.tools) {
        const name = mcpToolName(connection.config.name, tool.name);
        if (seen.has(name)) this.diag.note('mcp tool name clash', { server: connection.config.name, agent: agentId, tool: name }, 'warn');
        seen.add(name);
        const parameters = mcpToolParameters(tool.inputSchema);
        candidates.push({ name, server: connection.config.name, tool: tool.name, parameters, description: tool.description, connection });
      }
    }
    // The last of a clashing name wins, as before; then bad schemas and tools over the cap are left out, said once each.
    const last = new Map(candidates.map((c) => [c.name, c]));
    const admission = admitMcpTools([...last.values()], this.schemaCheck);
    for (const bad of admission.invalid) {
      this.diag.note('mcp tool schema invalid', { server: bad.server, agent: agentId, tool: bad.tool, reason: diagText(bad.reason) }, 'warn');
    }
    if (admission.overCap.length > 0) {
      this.diag.note('mcp tools over cap', { agent: agentId, kept: admission.admitted.length, dropped: admission.overCap.length, first_dropped: admission.overCap[0] ?? '', cap: MAX_TOOLS_PER_AGENT }, 'warn');
    }
    for (const c of admission.admitted) {
      state.tools.set(c.name, {
        spec: { name: c.name, description: mcpToolDescription(c.server, c.description), parameters: c.parameters },
        connection: c.connection,
        serverTool: c.tool,
      });
    }
    // A status lists what the agents are offered: a dropped tool is named in its WARN line, not here.
    for (const status of state.statuses) status.tools = status.tools.filter((name) => state.tools.has(name));
    return state;
  }

  private async connectOne(config: McpServerConfig, agentId: string | null): Promise<{ status: McpServerStatus; connection: McpConnection | null }> {
    const base = { name: config.name, agentId };
    if (!config.enabled) return { status: { ...base, connected: false, tools: [], error: 'disabled' }, connection: null };
    try {
      const connection = await McpConnection.open(config, this.opts);
      const tools = connection.tools.map((t) => mcpToolName(config.name, t.name));
      return { status: { ...base, connected: true, tools }, connection };
    } catch (error) {
      const message = redact(error instanceof Error ? error.message : String(error), config);
      this.diag.note('mcp connect failed', { server: config.name, agent: agentId, reason: diagText(message) }, 'warn');
      return { status: { ...base, connected: false, tools: [], error: message }, connection: null };
    }
  }
}

async function closeScope(state: ScopeState): Promise<void> {
  await Promise.all(state.connections.map((c) => c.close()));
}
