/**
 * A case's result over its repeats and a run's summary (pure): a case passes when the share of passing repeats
 * reaches its `minPassRate`; repeats not run (budget spent, interrupted) count as not passing, so a cut-short case
 * passes only when the repeats that did run already reach the rate over the whole count asked for, fails when it
 * could no longer reach it, and is `skipped` (undecided) otherwise.
 */
import type { PlanTaskState } from '../events.js';
import type { Verdict } from './judgeRepeat.js';

/** One repeat as the results keep it. */
export interface RepeatResult {
  /** 1-based. */
  repeat: number;
  pass: boolean;
  answer: string;
  outcome: PlanTaskState;
  verdicts: Verdict[];
  /** Agents asked, in order, and every tool call (agent, tool, ok). */
  chain: { asked: string[]; toolCalls: Array<{ agentId: string; tool: string; ok: boolean }>; maxRounds: number; maxHop: number };
  sessionId: string | null;
  effectiveTokens: number;
  costUsd: number | null;
  durationMs: number;
}

/** How a case ended: passed, failed, or never fully run (`skipped` with the reason). */
export type CaseStatus = 'passed' | 'failed' | 'skipped';

/** One case's result. */
export interface CaseResult {
  id: string;
  file: string;
  status: CaseStatus;
  /** Repeats asked for. */
  repeat: number;
  minPassRate: number;
  passed: number;
  /** passed / repeat. */
  passRate: number;
  repeats: RepeatResult[];
  /** Why repeats were not run (budget, interrupted, an error starting the case); null when all ran. */
  skipped: string | null;
}

/** The result of a case from its repeats. */
export function caseResult(c: { id: string; file: string; repeat: number; minPassRate: number }, repeats: RepeatResult[], skipped: string | null): CaseResult {
  const passed = repeats.filter((r) => r.pass).length;
  const passRate = c.repeat === 0 ? 0 : passed / c.repeat;
  // A tiny epsilon: 2/3 against 0.6667 written by hand must not fail on float rounding.
  const reached = passRate + 1e-9 >= c.minPassRate;
  // Cut short: failed when even passing every missing repeat could not reach the rate, else not decided (skipped).
  const couldReach = (passed + Math.max(0, c.repeat - repeats.length)) / c.repeat + 1e-9 >= c.minPassRate;
  const status: CaseStatus = reached ? 'passed' : skipped !== null && repeats.length < c.repeat && couldReach ? 'skipped' : 'failed';
  return { id: c.id, file: c.file, status, repeat: c.repeat, minPassRate: c.minPassRate, passed, passRate, repeats, skipped };
}

/** The counts of a run. */
export interface RunSummary {
  cases: number;
  passed: number;
  failed: number;
  skipped: number;
  repeats: number;
  effectiveTokens: number;
  costUsd: number | null;
  durationMs: number;
}

export function summarize(cases: readonly CaseResult[]): RunSummary {
  const all = cases.flatMap((c) => c.repeats);
  const priced = all.filter((r) => r.costUsd !== null);
  return {
    cases: cases.length,
    passed: cases.filter((c) => c.status === 'passed').length,
    failed: cases.filter((c) => c.status === 'failed').length,
    skipped: cases.filter((c) => c.status === 'skipped').length,
    repeats: all.length,
    effectiveTokens: all.reduce((n, r) => n + r.effectiveTokens, 0),
    costUsd: priced.length === 0 ? null : priced.reduce((n, r) => n + (r.costUsd ?? 0), 0),
    durationMs: all.reduce((n, r) => n + r.durationMs, 0),
  };
}

/** The run passed: at least one case, and every case passed. */
export function runPassed(summary: RunSummary): boolean {
  return summary.cases > 0 && summary.passed === summary.cases;
}
