/**
 * Stats as a pure fold over stored usage (never reads a clock or a file): turn records say how turns went (count,
 * failures, how they ended, duration, the per-turn chart); call records say what every LLM call cost — turn rounds,
 * wrap-ups and summaries alike. A conversation recorded before call records existed has its tokens from its turns.
 */
import { effectiveTokens } from '../budget/effectiveTokens.js';
import { summarizeCost, type PriceBook } from '../billing/pricing.js';
import { rowMilli, type UsageRow } from '../billing/tokenTotals.js';
import type { TurnStop } from '../events.js';
import type { CallRecord, TurnRecord } from '../sessions/records.js';
import type { SessionMeta } from '../sessions/sessionMeta.js';
import type { StatsPoint, StatsReport, StatsScope, StatsSlice } from './statsReport.js';

/** Points the chart shows at most (the newest). */
export const SERIES_LIMIT = 500;

/** One conversation's usage records. */
export interface SessionUsage {
  meta: SessionMeta;
  turns: TurnRecord[];
  calls: CallRecord[];
}

/** A token row with what prices it. */
type PricedRow = UsageRow & { agentId: string; model: string; templateId?: string; tsMs: number };

/** True for the stops that count as failed: everything but completed, repeat and tool_limit. */
export function isFailedStop(stop: TurnStop): boolean {
  return !(stop.kind === 'completed' || stop.kind === 'repeat' || stop.kind === 'tool_limit');
}

class SliceSum {
  turns = 0;
  failed = 0;
  calls = 0;
  prompt = 0;
  cached = 0;
  cacheWrite = 0;
  cacheWrite1h = 0;
  completion = 0;
  reasoning = 0;
  milli = 0;
  elapsedMs = 0;

  addTurn(turn: TurnRecord): void {
    this.turns += 1;
    if (isFailedStop(turn.stop)) this.failed += 1;
    this.elapsedMs += turn.elapsedMs;
  }

  addRow(row: UsageRow, calls: number): void {
    this.calls += calls;
    this.prompt += row.prompt;
    this.cached += row.cached;
    this.cacheWrite += row.cacheWrite;
    this.cacheWrite1h += row.cacheWrite1h;
    this.completion += row.completion;
    this.reasoning += row.reasoning;
    this.milli += rowMilli(row);
  }

  slice(): StatsSlice {
    const effective = effectiveTokens(this.milli);
    const ratio = (a: number, b: number): number | null => (b > 0 ? a / b : null);
    return {
      turns: this.turns,
      failed: this.failed,
      calls: this.calls,
      prompt: this.prompt,
      cached: this.cached,
      cacheWrite: this.cacheWrite,
      cacheWrite1h: this.cacheWrite1h,
      completion: this.completion,
      reasoning: this.reasoning,
      effective,
      cacheRate: ratio(this.cached, this.prompt),
      outputShare: ratio(this.completion, this.prompt + this.completion),
      avgEffectivePerTurn: ratio(effective, this.turns),
      avgLatencyMs: ratio(this.elapsedMs, this.turns),
    };
  }
}

function inPeriod(scope: StatsScope, tsMs: number): boolean {
  if (scope.kind !== 'all') return true;
  return (scope.sinceMs === undefined || tsMs >= scope.sinceMs) && (scope.untilMs === undefined || tsMs < scope.untilMs);
}

/** The token rows of one conversation: its calls, or its turns when it has no call records (older builds). */
function tokenRows(usage: SessionUsage): Array<{ row: PricedRow; calls: number }> {
  if (usage.calls.length > 0) return usage.calls.map((c) => ({ row: c, calls: 1 }));
  return usage.turns.map((t) => ({ row: { ...t, templateId: undefined }, calls: t.rounds }));
}

/** Builds the report of `scope` over every conversation's usage. Unknown session ids give "no records". */
export function aggregateStats(all: readonly SessionUsage[], scope: StatsScope, book: PriceBook): StatsReport {
  let oldestMs: number | null = null;
  if (scope.kind === 'all') {
    for (const s of all) for (const r of [...s.turns, ...s.calls]) if (oldestMs === null || r.tsMs < oldestMs) oldestMs = r.tsMs;
  }
  const chosen = scope.kind === 'session' ? all.filter((s) => s.meta.id === scope.sessionId) : all;
  const totals = new SliceSum();
  const byAgent = new Map<string, { agentId: string; model: string; sum: SliceSum }>();
  const agentSum = (agentId: string, model: string): SliceSum => {
    const key = JSON.stringify([agentId, model]);
    let entry = byAgent.get(key);
    if (entry === undefined) byAgent.set(key, (entry = { agentId, model, sum: new SliceSum() }));
    return entry.sum;
  };
  const stops = new Map<string, { stop: TurnStop['kind']; code: string | null; count: number }>();
  const priced: PricedRow[] = [];
  const points: StatsPoint[] = [];
  const sessions: StatsReport['sessions'] = [];

  for (const usage of chosen) {
    const session = new SliceSum();
    for (const turn of usage.turns) {
      if (!inPeriod(scope, turn.tsMs)) continue;
      totals.addTurn(turn);
      session.addTurn(turn);
      agentSum(turn.agentId, turn.model).addTurn(turn);
      const code = turn.stop.kind === 'failed' ? turn.stop.code : null;
      const key = `${turn.stop.kind}:${code ?? ''}`;
      const entry = stops.get(key) ?? { stop: turn.stop.kind, code, count: 0 };
      entry.count += 1;
      stops.set(key, entry);
      points.push({ tsMs: turn.tsMs, agentId: turn.agentId, effective: effectiveTokens(rowMilli(turn)), failed: isFailedStop(turn.stop) });
    }
    for (const { row, calls } of tokenRows(usage)) {
      if (!inPeriod(scope, row.tsMs)) continue;
      totals.addRow(row, calls);
      session.addRow(row, calls);
      agentSum(row.agentId, row.model).addRow(row, calls);
      priced.push(row);
    }
    if (session.turns > 0 || session.calls > 0) {
      const s = session.slice();
      sessions.push({ sessionId: usage.meta.id, title: usage.meta.title ?? null, forkedFrom: usage.meta.forkedFrom?.sessionId ?? null, turns: s.turns, effective: s.effective });
    }
  }

  const total = totals.slice();
  const cost = summarizeCost(priced, book);
  points.sort((a, b) => a.tsMs - b.tsMs);
  return {
    scope,
    hasRecords: total.turns > 0 || priced.length > 0,
    oldestMs,
    sessions,
    totals: total,
    byAgent: [...byAgent.values()]
      .map(({ agentId, model, sum }) => ({ agentId, model, ...sum.slice() }))
      .sort((a, b) => b.effective - a.effective || a.agentId.localeCompare(b.agentId)),
    byStop: [...stops.values()].sort((a, b) => b.count - a.count || a.stop.localeCompare(b.stop)),
    series: scope.kind === 'session' ? { points: points.slice(-SERIES_LIMIT), dropped: Math.max(0, points.length - SERIES_LIMIT) } : null,
    cost: cost.pricedRows === 0 ? null : cost,
  };
}
