/**
 * The shapes of a stats report (types only): what the GUI stats view, `fuseforks-cli stats` and library users read.
 * Token fields are tokens; `effective` is the budget's weighted tokens; times are epoch ms and elapsed ms.
 */
import type { CostSummary } from '../billing/pricing.js';
import type { TurnStop } from '../events.js';

/** Which conversations: one, or all of them (optionally a half-open period on the records' start time). */
export type StatsScope = { kind: 'session'; sessionId: string } | { kind: 'all'; sinceMs?: number; untilMs?: number };

/** Numbers of one slice of the records (everything, one agent × model). Rates are null when undefined (÷0). */
export interface StatsSlice {
  /** Turns that ended, and those that failed (stop failed, interrupted, budget). */
  turns: number;
  failed: number;
  /** LLM calls (turn rounds, wrap-ups, summaries), each with its usage. */
  calls: number;
  prompt: number;
  cached: number;
  cacheWrite: number;
  cacheWrite1h: number;
  completion: number;
  reasoning: number;
  effective: number;
  /** cached / prompt. */
  cacheRate: number | null;
  /** completion / (prompt + completion). */
  outputShare: number | null;
  /** Effective tokens per turn. */
  avgEffectivePerTurn: number | null;
  /** Mean turn duration (ms). */
  avgLatencyMs: number | null;
}

/** One conversation in scope. */
export interface StatsSession {
  sessionId: string;
  title: string | null;
  forkedFrom: string | null;
  turns: number;
  effective: number;
}

/** One bar of the effective-tokens-per-turn chart (this conversation only, oldest first). */
export interface StatsPoint {
  tsMs: number;
  agentId: string;
  effective: number;
  failed: boolean;
}

/** The whole report. `hasRecords` false = "no records" (never a page of zeros). */
export interface StatsReport {
  scope: StatsScope;
  hasRecords: boolean;
  /** The oldest record of every conversation, before the period filter (all only; paging months back). */
  oldestMs: number | null;
  sessions: StatsSession[];
  totals: StatsSlice;
  /** One row per (agent, model): an agent that changed model has one row per model. */
  byAgent: Array<{ agentId: string; model: string } & StatsSlice>;
  /** How turns ended: one row per stop kind (failed per code), most frequent first. */
  byStop: Array<{ stop: TurnStop['kind']; code: string | null; count: number }>;
  /** This conversation only: the newest 500 turns and how many older ones were left out. */
  series: { points: StatsPoint[]; dropped: number } | null;
  /** ≈ USD of the priced usage, the price date and how much was priced; null when nothing had a price. */
  cost: CostSummary | null;
}
