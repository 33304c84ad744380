/**
 * The live rows of a servant card, as pure functions over what the event stream reported: uptime (from the
 * supervisor's stats tick, only while the worker is up), the share of its prompt tokens served from the provider's
 * cache (cached / prompt, summed over its turns), and its last tool call. Unknown reads as "—", never as 0.
 */
import type { AgentStatus } from './types.js';

/** What the last `agentStatsUpdated` of a servant said (counters since the host started). */
export interface LiveStats {
  uptimeSecs: number;
  promptTokens: number;
  cachedTokens: number;
}

/** The servant's last tool call (`toolInvoked`), with the page's clock when it arrived. */
export interface LastTool {
  tool: string;
  ok: boolean;
  tsMs: number;
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
