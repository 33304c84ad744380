/**
 * Every file of a data dir (SPEC §3): the shelf (per machine, never shared) and the workspace (the village).
 * Pure path arithmetic; agent paths go through `assertSafeIdentifier` so an id can never leave `agents/`.
 */
import { join, resolve } from 'node:path';
import { assertSafeIdentifier } from '../world/identifiers.js';

/** Per-agent files (`agents/{id}/…`); `kind` names match the original's ConfigFileKind plus `judge`. */
export type AgentFileKind = 'skill' | 'memory' | 'construct' | 'mcp' | 'run' | 'judge';

/** File name of each agent file kind. */
export const AGENT_FILE_NAMES: Readonly<Record<AgentFileKind, string>> = {
  skill: 'SKILL.md',
  memory: 'Memory.md',
  construct: 'Construct.md',
  mcp: 'mcp.json',
  run: 'run.json',
  judge: 'judge.json',
};

/** Absolute paths of one agent's folder and files. */
export interface AgentPaths {
  dir: string;
  skill: string;
  memory: string;
  construct: string;
  mcp: string;
  run: string;
  judge: string;
}

/** Absolute paths of a data dir. */
export interface VillagePaths {
  dataDir: string;
  shelf: {
    /** Door settings `{enabled, port, token}`. */
    mcpServer: string;
    probeApprovals: string;
    jev: string;
    pricing: string;
  };
  workspace: string;
  world: string;
  schedules: string;
  villageId: string;
  ordinance: string;
  /** Shared MCP servers (Claude Desktop `mcpServers` format). */
  mcp: string;
  /** LMDB environment path (a single file with `noSubdir`, plus `-lock`). */
  sessions: string;
  log: string;
  lock: string;
  exports: string;
  agentsDir: string;
  /** Folder and files of one agent; throws UNSAFE_IDENTIFIER for an unsafe id. */
  agent(agentId: string): AgentPaths;
  /** One agent file; throws UNSAFE_IDENTIFIER for an unsafe id. */
  agentFile(agentId: string, kind: AgentFileKind): string;
  /** `exports/{sessionId}.jsonl`; throws UNSAFE_IDENTIFIER for an unsafe session id. */
  exportFile(sessionId: string): string;
}

/** Paths under `dataDir` (resolved to an absolute path against the current directory). */
export function villagePaths(dataDir: string): VillagePaths {
  const root = resolve(dataDir);
  const workspace = join(root, 'workspace');
  const agentsDir = join(workspace, 'agents');
  const agent = (agentId: string): AgentPaths => {
    assertSafeIdentifier(agentId, 'agent id');
    const dir = join(agentsDir, agentId);
    return {
      dir,
      skill: join(dir, AGENT_FILE_NAMES.skill),
      memory: join(dir, AGENT_FILE_NAMES.memory),
      construct: join(dir, AGENT_FILE_NAMES.construct),
      mcp: join(dir, AGENT_FILE_NAMES.mcp),
      run: join(dir, AGENT_FILE_NAMES.run),
      judge: join(dir, AGENT_FILE_NAMES.judge),
    };
  };
  return {
    dataDir: root,
    shelf: {
      mcpServer: join(root, 'mcp_server.json'),
      probeApprovals: join(root, 'probe_approvals.json'),
      jev: join(root, 'jev.json'),
      pricing: join(root, 'pricing.json'),
    },
    workspace,
    world: join(workspace, 'world.json'),
    schedules: join(workspace, 'schedules.json'),
    villageId: join(workspace, 'village_id'),
    ordinance: join(workspace, 'Ordinance.md'),
    mcp: join(workspace, 'mcp.json'),
    sessions: join(workspace, 'sessions.mdb'),
    log: join(workspace, 'fuseforks.log'),
    lock: join(workspace, '.fuseforks.lock'),
    exports: join(workspace, 'exports'),
    agentsDir,
    agent,
    agentFile: (agentId, kind) => agent(agentId)[kind],
    exportFile: (sessionId) => {
      assertSafeIdentifier(sessionId, 'session id');
      return join(workspace, 'exports', `${sessionId}.jsonl`);
    },
  };
}
