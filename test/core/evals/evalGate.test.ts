/** The bake gate over kept eval runs (pure): which design digest, every case run and passed, nothing unusable. */
import { describe, expect, it } from 'vitest';
import { evalGate, evalGateText, type GateRun } from '../../../src/core/evals/evalGate.js';

const run = (digest: string, cases: Array<[string, 'passed' | 'failed' | 'skipped']>, extra: Partial<GateRun> = {}): GateRun => ({
  runId: `r-${digest}`,
  digest,
  finishedAt: '2026-12-04T00:00:00.000Z',
  interrupted: false,
  cases: cases.map(([id, status]) => ({ id, status })),
  problems: [],
  ...extra,
});

describe('evalGate', () => {
  it.each([
    ['no cases at all', [], [], [], 'no_cases'],
    ['no run of this digest (an older design passed)', ['a'], [], [run('old', [['a', 'passed']])], 'not_run'],
    ['the newest run of this digest passed every case', ['a', 'b'], [], [run('d', [['a', 'passed'], ['b', 'passed']]), run('d', [['a', 'failed']])], 'passed'],
    ['the newest run of this digest failed one', ['a', 'b'], [], [run('d', [['a', 'passed'], ['b', 'failed']]), run('d', [['a', 'passed'], ['b', 'passed']])], 'failed'],
    ['a --case run that left a case out', ['a', 'b'], [], [run('d', [['a', 'passed']])], 'failed'],
    ['an unusable case file now', ['a'], ['workspace/evals/x.json'], [run('d', [['a', 'passed']])], 'failed'],
    ['an interrupted run', ['a'], [], [run('d', [['a', 'passed']], { interrupted: true })], 'failed'],
  ])('%s → %s', (_label, ids, unusable, runs, kind) => {
    expect(evalGate(ids, unusable, 'd', runs).kind).toBe(kind);
  });

  it('names what failed, what was not run and what is unusable', () => {
    const gate = evalGate(['a', 'b', 'c'], ['workspace/evals/x.json'], 'd', [run('d', [['a', 'passed'], ['b', 'failed']])]);
    expect(evalGateText(gate)).toBe('evals: the last run of this design (run r-d) did not pass — not passed: b; not run: c; unusable: workspace/evals/x.json');
    expect(evalGateText(evalGate(['a'], [], 'sha256:0123456789abcdef', []))).toBe('evals: no eval run of this design (sha256:0123456789ab) on this machine');
  });
});
