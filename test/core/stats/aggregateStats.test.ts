import { describe, expect, it } from 'vitest';
import { priceBook } from '../../../src/core/billing/pricing.js';
import type { CallRecord, TurnRecord } from '../../../src/core/sessions/records.js';
import { aggregateStats, SERIES_LIMIT, type SessionUsage } from '../../../src/core/stats/aggregateStats.js';
import type { TurnStop } from '../../../src/core/events.js';

const turn = (agentId: string, tsMs: number, prompt: number, completion: number, extra: Partial<TurnRecord> = {}): TurnRecord => ({
  agentId, tsMs, hop: 0, rounds: 1, waves: 0, stop: { kind: 'completed' }, prompt, cached: 0, completion, reasoning: 0,
  cacheWrite: 0, cacheWrite1h: 0, model: 'm', backend: 'openai-compat', elapsedMs: 1000, ...extra,
});
const call = (agentId: string, tsMs: number, prompt: number, completion: number, extra: Partial<CallRecord> = {}): CallRecord => ({
  agentId, templateId: 't', model: 'm', backend: 'openai-compat', purpose: 'turn', tsMs, latencyMs: 500, outcome: { kind: 'ok' },
  prompt, cached: 0, cacheWrite: 0, cacheWrite1h: 0, completion, reasoning: 0, estimated: false, ...extra,
});
const session = (id: string, turns: TurnRecord[], calls: CallRecord[], title?: string): SessionUsage => ({
  meta: { id, createdAtMs: 0, updatedAtMs: 0, recordCount: 0, ...(title === undefined ? {} : { title }) },
  turns,
  calls,
});
const unpriced = priceBook([]);
const priced = priceBook([
  { id: 't', model: 'm', inputPerMtok: 3, outputPerMtok: 15, cacheReadPerMtok: 0.3, cacheWritePerMtok: null, cacheWrite1hPerMtok: null, pricingAsOf: '2026-07-01' },
]);

describe('aggregateStats', () => {
  it('says "no records" for a conversation without usage, never a page of zeros', () => {
    const report = aggregateStats([session('s1', [], [])], { kind: 'session', sessionId: 's1' }, unpriced);
    expect(report).toMatchObject({ hasRecords: false, sessions: [], cost: null, series: { points: [], dropped: 0 } });
    expect(aggregateStats([], { kind: 'session', sessionId: 'nope' }, unpriced).hasRecords).toBe(false);
  });

  it('tiles: turns and failed from turns, tokens from every call (summaries included), rates and averages', () => {
    const s = session(
      's1',
      [turn('a', 10, 1000, 100, { elapsedMs: 2000 }), turn('a', 20, 0, 0, { stop: { kind: 'failed', code: 'LLM_API' }, elapsedMs: 400 })],
      [call('a', 10, 600, 60, { cached: 300 }), call('a', 11, 400, 40, { cached: 200, reasoning: 7 }), call('a', 30, 50, 5, { purpose: 'summarize' })],
    );
    const { totals } = aggregateStats([s], { kind: 'session', sessionId: 's1' }, unpriced);
    // effective = uncached ×1 + cached ×0.1 + output ×4, summed: (300+30+240) + (200+20+160) + (50+20) = 1020
    expect(totals).toEqual({
      turns: 2, failed: 1, calls: 3, prompt: 1050, cached: 500, cacheWrite: 0, cacheWrite1h: 0, completion: 105, reasoning: 7,
      effective: 1020, cacheRate: 500 / 1050, outputShare: 105 / 1155, avgEffectivePerTurn: 510, avgLatencyMs: 1200,
    });
  });

  it('a conversation recorded before call records takes its tokens from its turns', () => {
    const old = session('old', [turn('a', 1, 100, 10, { rounds: 3 })], []);
    expect(aggregateStats([old], { kind: 'all' }, unpriced).totals).toMatchObject({ turns: 1, calls: 3, prompt: 100, completion: 10 });
  });

  it('one row per agent × model, how turns ended, and every conversation in scope', () => {
    const s1 = session('s1', [turn('a', 1, 10, 1), turn('a', 2, 10, 1, { model: 'm2' }), turn('b', 3, 10, 1, { stop: { kind: 'interrupted' } })], [], 'first');
    const s2 = session('s2', [turn('b', 4, 10, 1, { stop: { kind: 'failed', code: 'LLM_HTTP' } }), turn('b', 5, 10, 1, { stop: { kind: 'failed', code: 'LLM_HTTP' } })], []);
    const report = aggregateStats([s1, s2], { kind: 'all' }, unpriced);
    expect(report.byAgent.map((r) => [r.agentId, r.model, r.turns, r.failed])).toEqual([
      ['b', 'm', 3, 3],
      ['a', 'm', 1, 0],
      ['a', 'm2', 1, 0],
    ]);
    const stops: Array<[TurnStop['kind'], string | null, number]> = report.byStop.map((r) => [r.stop, r.code, r.count]);
    expect(stops).toEqual([['completed', null, 2], ['failed', 'LLM_HTTP', 2], ['interrupted', null, 1]]);
    expect(report.sessions.map((x) => [x.sessionId, x.title, x.turns])).toEqual([['s1', 'first', 3], ['s2', null, 2]]);
    expect(report.series).toBeNull();
  });

  it('a period is half-open on the start time and the oldest record is reported before filtering', () => {
    const s = session('s', [turn('a', 100, 10, 1), turn('a', 200, 20, 2), turn('a', 300, 30, 3)], []);
    const report = aggregateStats([s], { kind: 'all', sinceMs: 200, untilMs: 300 }, unpriced);
    expect(report.totals).toMatchObject({ turns: 1, prompt: 20 });
    expect(report.oldestMs).toBe(100);
    expect(aggregateStats([s], { kind: 'all', sinceMs: 400 }, unpriced).hasRecords).toBe(false);
  });

  it('the chart has one bar per turn (effective tokens), oldest first, the newest 500', () => {
    const turns = Array.from({ length: SERIES_LIMIT + 3 }, (_, i) => turn('a', 1000 - i, 10 * i, 0));
    const { series } = aggregateStats([session('s', turns, [])], { kind: 'session', sessionId: 's' }, unpriced);
    expect(series!.dropped).toBe(3);
    expect(series!.points).toHaveLength(SERIES_LIMIT);
    expect(series!.points[0]!.tsMs).toBeLessThan(series!.points[1]!.tsMs);
    expect(series!.points.at(-1)).toEqual({ tsMs: 1000, agentId: 'a', effective: 0, failed: false });
  });

  it('cost: the formula over the priced calls with the price date; null when nothing is priced', () => {
    const s = session('s', [], [call('a', 1, 1_000_000, 100_000, { cached: 400_000 }), call('x', 2, 5, 5, { templateId: 'gone', model: 'other' })]);
    const report = aggregateStats([s], { kind: 'all' }, priced);
    expect(report.cost).toEqual({ usd: 0.6 * 3 + 0.4 * 0.3 + 0.1 * 15, asOf: '2026-07-01', pricedRows: 1, totalRows: 2, pricedTokens: 1_100_000, totalTokens: 1_100_010 });
    expect(aggregateStats([s], { kind: 'all' }, unpriced).cost).toBeNull();
  });
});
