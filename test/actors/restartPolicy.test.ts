import { describe, expect, it } from 'vitest';
import { decideRestart, pruneRestarts, type RestartDecision, type RestartFacts } from '../../src/actors/restartPolicy.js';

const base: RestartFacts = { enabled: true, failure: 'crash', wasReady: true, restartsAtMs: [], nowMs: 100_000 };

describe('decideRestart', () => {
  const rows: Array<[string, Partial<RestartFacts>, RestartDecision]> = [
    ['off by default', { enabled: false }, { restart: false, reason: 'disabled' }],
    ['never after a fatal LLM error', { failure: 'fatal_llm' }, { restart: false, reason: 'fatal_llm' }],
    ['never a worker that died before ready', { wasReady: false }, { restart: false, reason: 'before_ready' }],
    ['first crash restarts after the base delay', {}, { restart: true, delayMs: 250 }],
    ['backoff doubles per recent restart', { restartsAtMs: [90_000, 95_000] }, { restart: true, delayMs: 1000 }],
    ['a fourth crash inside 60 s is not restarted', { restartsAtMs: [50_000, 60_000, 70_000] }, { restart: false, reason: 'budget_spent' }],
    ['restarts older than 60 s do not count', { restartsAtMs: [10_000, 20_000, 39_999] }, { restart: true, delayMs: 250 }],
  ];
  it.each(rows)('%s', (_name, facts, expected) => {
    expect(decideRestart({ ...base, ...facts })).toEqual(expected);
  });

  it('prunes restarts that left the window', () => {
    expect(pruneRestarts([10_000, 50_000, 99_000], 100_000)).toEqual([50_000, 99_000]);
  });
});
