/**
 * Pass rates over repeats against minPassRate (a flaky case passing 2 of 3 against 0.6 and 0.8), cut-short cases,
 * the run summary and its pass rule; the rubric reply reader; JUnit XML escaping.
 */
import { describe, expect, it } from 'vitest';
import { caseResult, runPassed, summarize, type RepeatResult } from '../../../src/core/evals/caseResult.js';
import { junitXml, xmlEscape } from '../../../src/core/evals/junitReport.js';
import { rubricVerdict } from '../../../src/core/evals/rubricJudge.js';

const rep = (n: number, pass: boolean, tokens = 10, costUsd: number | null = null): RepeatResult => ({
  repeat: n,
  pass,
  answer: `answer ${n}`,
  outcome: 'answered',
  verdicts: [{ expectation: 'contains "x"', pass, reason: pass ? 'found' : 'not found' }],
  chain: { asked: [], toolCalls: [], maxRounds: 1, maxHop: 0 },
  sessionId: null,
  effectiveTokens: tokens,
  costUsd,
  durationMs: 100,
});

const flaky = [rep(1, true), rep(2, false), rep(3, true)];

describe('caseResult', () => {
  it.each([
    [0.6, 'passed'],
    [0.8, 'failed'],
    [2 / 3, 'passed'],
    [1, 'failed'],
    [0, 'passed'],
  ])('2 of 3 against minPassRate %s → %s', (minPassRate, status) => {
    const r = caseResult({ id: 'f', file: 'workspace/evals/f.json', repeat: 3, minPassRate }, flaky, null);
    expect(r.status).toBe(status);
    expect(r.passed).toBe(2);
    expect(r.passRate).toBeCloseTo(2 / 3);
  });

  it('cut short: passes when the ran repeats already reach the rate, fails when it can no longer, else skipped', () => {
    const c = { id: 'c', file: 'f', repeat: 4, minPassRate: 0.5 };
    expect(caseResult(c, [rep(1, true), rep(2, true)], 'budget').status).toBe('passed');
    expect(caseResult(c, [rep(1, false), rep(2, false), rep(3, false)], 'budget').status).toBe('failed');
    expect(caseResult(c, [rep(1, true)], 'budget').status).toBe('skipped');
    expect(caseResult(c, [], 'interrupted')).toMatchObject({ status: 'skipped', skipped: 'interrupted' });
  });

  it('summary: counts, tokens, cost only over priced repeats; a run passes only with cases and all passed', () => {
    const a = caseResult({ id: 'a', file: 'a', repeat: 1, minPassRate: 1 }, [rep(1, true, 5, 0.5)], null);
    const b = caseResult({ id: 'b', file: 'b', repeat: 2, minPassRate: 1 }, [rep(1, true, 7), rep(2, false, 8)], null);
    const s = summarize([a, b]);
    expect(s).toMatchObject({ cases: 2, passed: 1, failed: 1, skipped: 0, repeats: 3, effectiveTokens: 20, costUsd: 0.5, durationMs: 300 });
    expect(runPassed(s)).toBe(false);
    expect(runPassed(summarize([a]))).toBe(true);
    expect(runPassed(summarize([]))).toBe(false);
    expect(summarize([b]).costUsd).toBeNull();
  });
});

describe('rubricVerdict', () => {
  it.each([
    ['PASS\nIt names the notes.', true, 'judge: It names the notes.'],
    ['FAIL\nIt never mentions the notes.', false, 'judge: It never mentions the notes.'],
    ['**PASS**: covers it', true, 'judge: covers it'],
    ['fail - too short', false, 'judge: too short'],
    ['PASS', true, 'judge: (no reason given)'],
  ])('%j → pass %s', (reply, pass, reason) => {
    expect(rubricVerdict('rubric', reply)).toEqual({ expectation: 'rubric', pass, reason });
  });

  it('prose without PASS or FAIL first is a failed verdict that quotes the judge', () => {
    expect(rubricVerdict('rubric', 'I think it is fine')).toMatchObject({ pass: false, reason: expect.stringMatching(/did not answer PASS or FAIL .*I think it is fine/) });
  });
});

describe('junitXml', () => {
  it('escapes markup and drops characters XML cannot carry', () => {
    expect(xmlEscape('a<b>&"c\'\u0001')).toBe('a&lt;b&gt;&amp;&quot;c&apos;');
  });

  it('one testcase per case: failure with the failed verdicts, skipped with its reason', () => {
    const failed = caseResult({ id: 'flaky<1>', file: 'workspace/evals/f.json', repeat: 3, minPassRate: 0.8 }, flaky, null);
    const skipped = caseResult({ id: 's', file: 'workspace/evals/s.json', repeat: 2, minPassRate: 1 }, [], 'interrupted');
    const xml = junitXml([failed, skipped], summarize([failed, skipped]), '2026-12-04T01:00:00.000Z');
    expect(xml).toContain('<testsuites name="fuseforks evals" tests="2" failures="1" errors="0" skipped="1"');
    expect(xml).toContain('name="flaky&lt;1&gt;"');
    expect(xml).toMatch(/<failure message="2\/3 repeats passed \(minPassRate 0.8\)" type="eval">pass rate 2\/3 below minPassRate 0.8\nrepeat 2: contains &quot;x&quot;: not found<\/failure>/);
    expect(xml).toContain('<skipped message="interrupted"/>');
  });
});
