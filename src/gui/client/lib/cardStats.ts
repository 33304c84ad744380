/**
 * The live rows of a servant card, as pure functions over what the event stream reported: uptime (from the
 * supervisor's stats tick, only while the worker is up), the share of its prompt tokens served from the provider's
 * cache (cached / prompt, summed over its turns), and its last tool call. Unknown reads as "—", never as 0.
 */
import type { AgentStatus } from './types.js';

/** What the last `agentStatsUpdated` of a servant said (counters since the host started; no uptime when seeded from a read). */
export interface LiveStats {
  uptimeSecs?: number;
  promptTokens: number;
  cachedTokens: number;
}

/** The servant's last tool call (`toolInvoked`), with the page's clock when it arrived. */
export interface LastTool {
  tool: string;
  ok: boolean;
  tsMs: number;
}

/**
 * Seeds the card rows from the host's read (a reloaded page): counters the events have not moved past, and a last
 * tool call newer than the one this page saw. Events that arrive later replace both.
 */
export function adoptActivity(
  stats: Record<string, LiveStats>,
  lastTool: Record<string, LastTool>,
  activity: Record<string, { promptTokens: number; cachedTokens: number; lastTool: { tool: string; ok: boolean; atMs: number } | null }>,
): void {
  for (const [id, a] of Object.entries(activity)) {
    const seen = stats[id];
    if (seen === undefined || a.promptTokens > seen.promptTokens) stats[id] = { ...(seen?.uptimeSecs === undefined ? {} : { uptimeSecs: seen.uptimeSecs }), promptTokens: a.promptTokens, cachedTokens: a.cachedTokens };
    const tool = a.lastTool;
    if (tool !== null && (lastTool[id] === undefined || tool.atMs > lastTool[id].tsMs)) lastTool[id] = { tool: tool.tool, ok: tool.ok, tsMs: tool.atMs };
  }
}

/** Shown for anything not known yet. */
export const UNKNOWN = '—';

/** `1h 02m 03s`, `2m 05s`, `7s`; unknown (or a stopped worker) reads "—". */
export function formatUptime(secs: number | undefined): string {
  if (secs === undefined || !Number.isFinite(secs) || secs < 0) return UNKNOWN;
  const s = Math.floor(secs);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const rest = String(s % 60).padStart(2, '0');
  if (h > 0) return `${h}h ${String(m).padStart(2, '0')}m ${rest}s`;
  if (m > 0) return `${m}m ${rest}s`;
  return `${s % 60}s`;
}

/** The uptime to show: only while the worker is starting or running (a stopped worker has none). */
export function uptimeOf(status: AgentStatus | undefined, stats: LiveStats | undefined): number | undefined {
  return status === 'running' || status === 'starting' ? stats?.uptimeSecs : undefined;
}

/** cached / prompt in [0, 1]; null before any prompt token was counted. */
export function cacheRate(stats: LiveStats | undefined): number | null {
  if (stats === undefined || stats.promptTokens <= 0) return null;
  return Math.min(1, Math.max(0, stats.cachedTokens / stats.promptTokens));
}

/** A rate as a whole percent ("56%"); null reads "—". */
export function formatRate(rate: number | null): string {
  return rate === null ? UNKNOWN : `${Math.round(rate * 100)}%`;
}
