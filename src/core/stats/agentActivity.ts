/**
 * What each agent last did, as the event stream told it, for faces that open later (the GUI's card rows after a
 * reload): its prompt and cached token counters from the last stats tick, and its last tool call. A pure fold over
 * CoreEvents; the host keeps one for its lifetime.
 */
import type { CoreEvent } from '../events.js';

/** One agent's last counters and tool call (`lastTool` null until it called one). */
export interface AgentActivity {
  promptTokens: number;
  cachedTokens: number;
  lastTool: { tool: string; ok: boolean; atMs: number } | null;
}

/** Applies one event (in place; other events leave it unchanged). `nowMs` stamps a tool call. */
export function foldActivity(activity: Record<string, AgentActivity>, event: CoreEvent, nowMs: number): void {
  if (event.type === 'agentStatsUpdated') {
    const prev = activity[event.agentId];
    activity[event.agentId] = { promptTokens: event.promptTokens, cachedTokens: event.cachedTokens, lastTool: prev?.lastTool ?? null };
  } else if (event.type === 'toolInvoked') {
    const prev = activity[event.agentId];
    activity[event.agentId] = { promptTokens: prev?.promptTokens ?? 0, cachedTokens: prev?.cachedTokens ?? 0, lastTool: { tool: event.tool, ok: event.ok, atMs: nowMs } };
  }
}
