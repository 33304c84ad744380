/**
 * What the Kizuna map's hover panel says about one servant, as a pure function of the re-read world and the live
 * view: its model template, status, the tools it is offered (the default set when `enabledTools` is null) and its
 * last activity (the newest message it sent or received, or tool it ran, seen by this page).
 */
import { involves } from './chatRows.js';
import type { AgentSpec, AgentStatus, World } from './types.js';
import type { View } from './view.js';

/** The newest thing a servant did or got. */
export type LastActivity = { kind: 'message'; tsMs: number; sent: boolean } | { kind: 'tool'; tsMs: number; tool: string; ok: boolean };

/** The hover panel's content. */
export interface NodeSummary {
  id: string;
  name: string;
  templateName: string;
  model: string;
  status: AgentStatus;
  /** The tools offered, and whether that is the default set (`enabledTools: null`). */
  tools: string[];
  defaultTools: boolean;
  workDir: string | null;
  lastActivity: LastActivity | null;
}

/** Summarises servant `agent` (the template may be missing from a hand-edited world: its id is shown then). */
export function nodeSummary(agent: AgentSpec, world: World, view: Pick<View, 'status' | 'messages' | 'lines'>, defaults: readonly string[]): NodeSummary {
  const template = world.modelTemplates.find((x) => x.id === agent.modelTemplateId);
  let last: LastActivity | null = null;
  for (const m of view.messages) {
    if (involves(m, agent.id) && (last === null || m.tsMs >= last.tsMs)) last = { kind: 'message', tsMs: m.tsMs, sent: m.from.kind === 'agent' && m.from.id === agent.id };
  }
  for (const l of view.lines) {
    if (l.kind === 'tool' && l.agentId === agent.id && (last === null || l.tsMs >= last.tsMs)) last = { kind: 'tool', tsMs: l.tsMs, tool: l.text, ok: l.ok };
  }
  return {
    id: agent.id,
    name: agent.name,
    templateName: template?.name ?? agent.modelTemplateId,
    model: template?.model ?? '',
    status: view.status[agent.id] ?? 'idle',
    tools: agent.enabledTools === null ? [...defaults] : [...agent.enabledTools],
    defaultTools: agent.enabledTools === null,
    workDir: agent.workDir,
    lastActivity: last,
  };
}
