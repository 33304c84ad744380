/**
 * Per-agent counters (tokens and uptime) and the `agentStatsUpdated` ticker: once per interval for every active
 * agent, as the original (1 s). Counters are settled from each turn's spend on the main thread; they live as long
 * as the supervisor (a restart keeps them, like the original's AgentRecord).
 */
import type { AgentStatus, CoreEvent } from '../core/events.js';
import type { TurnSpend } from '../core/turn/ports.js';

/** Token counters of one agent (totalTokens = prompt + completion). */
export interface AgentCounters {
  totalTokens: number;
  promptTokens: number;
  cachedTokens: number;
}

export class AgentStats {
  private readonly counters = new Map<string, AgentCounters>();
  private timer: NodeJS.Timeout | null = null;

  /** Adds one turn's spend (every call of the turn, paid failures and the summary call included). */
  settle(agentId: string, spend: TurnSpend): void {
    const c = this.of(agentId);
    c.totalTokens += spend.prompt + spend.completion;
    c.promptTokens += spend.prompt;
    c.cachedTokens += spend.cached;
  }

  of(agentId: string): AgentCounters {
    let c = this.counters.get(agentId);
    if (c === undefined) {
      c = { totalTokens: 0, promptTokens: 0, cachedTokens: 0 };
      this.counters.set(agentId, c);
    }
    return c;
  }

  /** The events one tick emits: one per active (starting/running) agent. Pure over its inputs. */
  tick(active: Array<{ agentId: string; status: AgentStatus; startedAtMs: number }>, nowMs: number): CoreEvent[] {
    return active
      .filter((a) => a.status === 'running' || a.status === 'starting')
      .map((a) => ({
        type: 'agentStatsUpdated' as const,
        agentId: a.agentId,
        uptimeSecs: Math.max(0, Math.floor((nowMs - a.startedAtMs) / 1000)),
        ...this.of(a.agentId),
      }));
  }

  /** Starts the ticker (unref'd: it never keeps a process alive). 0 = off. */
  start(intervalMs: number, onTick: () => void): void {
    if (intervalMs <= 0 || this.timer !== null) return;
    this.timer = setInterval(onTick, intervalMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
  }
}
