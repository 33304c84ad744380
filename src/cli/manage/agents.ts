/**
 * `fuseforks-cli agents list`: the village's agents in the GUI's order with what a script needs to address them.
 * Through `HostApi` when the village is free (every agent is stopped then: nothing runs in a management host);
 * beside a running owner from world.json, with each status from that process through its door; with its door off,
 * from a live serve's heartbeat (`serve.status.json`: running or idle, as of its last beat) — else unknown.
 */
import { jsonText } from '../jsonFormat.js';
import type { AgentStatus } from '../../core/events.js';
import { villagePaths } from '../../core/village/paths.js';
import { loadWorld, systemLocale } from '../../core/village/worldStore.js';
import type { World } from '../../core/world/types.js';
import { EXIT, type ExitCode } from '../exitCodes.js';
import type { CliOutput } from '../output.js';
import { DOOR_MANAGE_PATHS } from '../../host/door/doorManage.js';
import { withVillage } from './openManaged.js';
import { callDoor } from './throughDoor.js';
import { DEFAULT_MAX_AGE_SECS, judgeServeStatus, pidAlive, readServeStatus, statusAgeSecs } from '../../host/health/serveStatus.js';

/** One agent as `agents list --json` prints it. */
export interface AgentListRow {
  agentId: string;
  name: string;
  /** null while another process holds the village with its door off (its running state is that process's). */
  status: AgentStatus | null;
  modelTemplateId: string;
  roleId: string | null;
  groupId: string | null;
  reception: boolean;
  batchStart: boolean;
  planReview: boolean;
  connectedAgents: string[];
}

/** Rows in list order (`order`), as the GUI shows them. */
export function agentRows(world: World, status: (id: string) => AgentStatus | null): AgentListRow[] {
  return [...world.agents]
    .sort((a, b) => a.order - b.order)
    .map((a) => ({
      agentId: a.id,
      name: a.name,
      status: status(a.id),
      modelTemplateId: a.modelTemplateId,
      roleId: a.roleId,
      groupId: a.groupId,
      reception: world.reception === a.id,
      batchStart: a.batchStart,
      planReview: a.planReview,
      connectedAgents: [...a.connectedAgents],
    }));
}

/** One line per agent for people. */
export function agentLine(row: AgentListRow): string {
  const marks = [row.reception ? 'reception' : '', row.batchStart ? 'batch' : '', row.planReview ? 'plan review' : ''].filter(Boolean);
  const ties = row.connectedAgents.length === 0 ? '' : ` → ${row.connectedAgents.join(', ')}`;
  return `${row.agentId}  ${JSON.stringify(row.name)}  ${row.status ?? 'unknown'}  model ${row.modelTemplateId}${marks.length === 0 ? '' : `  [${marks.join(', ')}]`}${ties}`;
}

/** Where the statuses of a held village came from: the holder's door, a live serve's heartbeat, or nowhere. */
type HeldStatuses = { kind: 'door'; port: number } | { kind: 'heartbeat'; ageSecs: number } | { kind: 'none' };

/**
 * Running or idle per agent from `serve.status.json`, when a live serve wrote it within the `status` command's
 * max age (its pid a running serve); null otherwise. The list is as fresh as the last beat (10 s at most).
 */
async function heartbeatStatuses(dataDir: string): Promise<{ running: Set<string>; ageSecs: number } | null> {
  const read = await readServeStatus(dataDir);
  const nowMs = Date.now();
  if (read.kind !== 'ok' || !judgeServeStatus(read, { nowMs, maxAgeSecs: DEFAULT_MAX_AGE_SECS, pidAlive, ready: false }).healthy) return null;
  return { running: new Set(read.doc.agentsRunning), ageSecs: statusAgeSecs(read.doc, nowMs) };
}

/** `agents list`. */
export async function runAgentsList(options: { dataDir: string; json: boolean }, output: CliOutput): Promise<ExitCode> {
  const managed = await withVillage(
    options.dataDir,
    'agents list',
    output,
    async (host) => {
      const statuses = new Map(host.agents().map((a) => [a.agentId, a.status]));
      return agentRows(host.world(), (id) => statuses.get(id) ?? null);
    },
    true,
  );
  let rows: AgentListRow[];
  let held = false;
  let from: HeldStatuses = { kind: 'none' };
  if (managed.ok) rows = managed.value;
  else if (managed.held) {
    const load = await loadWorld(villagePaths(options.dataDir), { locale: systemLocale() });
    // The holder knows who runs: ask its door; with the door off, a live serve's heartbeat says who ran at its last beat.
    const via = await callDoor<{ agents: Array<{ agentId: string; status: AgentStatus }> }>(options.dataDir, DOOR_MANAGE_PATHS.agents);
    let status: (id: string) => AgentStatus | null = () => null;
    if (via.kind === 'ok') {
      const live = new Map(via.value.agents.map((a) => [a.agentId, a.status]));
      status = (id) => live.get(id) ?? null;
      from = { kind: 'door', port: via.port };
    } else {
      const beat = await heartbeatStatuses(options.dataDir);
      if (beat !== null) {
        status = (id) => (beat.running.has(id) ? 'running' : 'idle');
        from = { kind: 'heartbeat', ageSecs: beat.ageSecs };
      }
    }
    rows = load.kind === 'missing' ? [] : agentRows(load.doc.world, status);
    held = true;
  } else return managed.exit;
  if (options.json) output.stdout(jsonText({ held, statusFrom: held ? from.kind : 'host', agents: rows }));
  else {
    const lines = rows.map(agentLine);
    if (lines.length === 0) lines.push('no agents');
    if (from.kind === 'door') lines.push(`(the village is open in another process; statuses from its MCP door at 127.0.0.1:${from.port})`);
    else if (from.kind === 'heartbeat') {
      lines.push(`(the village is open in a serve whose door is off; statuses from its heartbeat, ${from.ageSecs} s old — switch its door on for live ones)`);
    } else if (held) lines.push('(the village is open in another process whose door is off; whether an agent runs is known there)');
    output.stdout(lines.join('\n'));
  }
  return EXIT.ok;
}
