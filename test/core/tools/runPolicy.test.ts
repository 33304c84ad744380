import { describe, expect, it } from 'vitest';
import {
  clampTimeout,
  decide,
  defaultRunPolicy,
  matchesPattern,
  MAX_PENDING,
  normalizeCommand,
  notePending,
  parseRunPolicy,
  recordApproval,
  type RunPolicy,
} from '../../../src/core/tools/runPolicy.js';

const policy = (over: Partial<RunPolicy> = {}): RunPolicy => ({ ...defaultRunPolicy(), ...over });

describe('normalizeCommand', () => {
  const cases: Array<[string, string | null]> = [
    ['git', 'git'],
    ['  Git ', 'git'],
    ['/bin/ls', null],
    ['..\\x', null],
    ['c:cmd', null],
    ['', null],
    ['   ', null],
    ['ls -la', null],
  ];
  it.each(cases)('%j → %j', (raw, expected) => expect(normalizeCommand(raw)).toBe(expected));
});

describe('matchesPattern', () => {
  const cases: Array<[string, string, string[], boolean]> = [
    ['git status', 'git', ['status'], true],
    ['git status', 'git', ['status', '-s'], false],
    ['git status', 'git', [], false],
    ['git *', 'git', [], true],
    ['git *', 'git', ['log', '-1'], true],
    ['git log *', 'git', ['log'], true],
    ['git log *', 'git', ['status'], false],
    ['GIT status', 'git', ['status'], true],
    ['git Status', 'git', ['status'], false],
    ['*', 'git', [], false],
    ['*', '*', [], false],
    ['* *', '*', ['x'], false],
    ['* status', 'git', ['status'], false],
    ['git * status', 'git', ['x', 'status'], false],
    ['git * status', 'git', ['*', 'status'], true],
    ['  npm   test  ', 'npm', ['test'], true],
    ['', 'npm', [], false],
    ['ls', 'ls', [], true],
  ];
  it.each(cases)('%j vs %s %j → %s', (pattern, command, args, expected) => {
    expect(matchesPattern(pattern, command, args)).toBe(expected);
  });
});

describe('decide', () => {
  const p = policy({ allow: ['git *', 'npm test', 'rm *'], deny: ['git push *', 'rm *'] });
  const cases: Array<[string, string[], string]> = [
    ['git', ['status'], 'allowed'],
    ['Git', ['push', 'origin'], 'denied'],
    ['rm', ['-rf', 'x'], 'denied'],
    ['npm', ['test'], 'allowed'],
    ['npm', ['install'], 'unknown'],
    ['curl', [], 'unknown'],
    ['./git', ['status'], 'malformed'],
    ['C:git', [], 'malformed'],
  ];
  it.each(cases)('%s %j → %s', (command, args, expected) => expect(decide(p, command, args)).toBe(expected));
  it('nothing runs by default', () => expect(decide(defaultRunPolicy(), 'ls', [])).toBe('unknown'));
});

describe('parseRunPolicy', () => {
  const cases: Array<[string, string, boolean, number]> = [
    ['empty file', '', false, 60],
    ['full', '{"version":1,"allow":["ls"],"deny":[],"pending":[],"timeoutSecs":5}', false, 5],
    ['timeout clamped low', '{"timeoutSecs":0}', false, 1],
    ['timeout clamped high', '{"timeoutSecs":99999}', false, 3600],
    ['timeout not a number', '{"timeoutSecs":"x"}', false, 60],
    ['broken JSON', '{"allow":[', true, 60],
    ['array top', '[]', true, 60],
    ['allow not strings', '{"allow":[1]}', true, 60],
    ['bad pending', '{"pending":[{"command":1}]}', true, 60],
    ['future version', '{"version":2}', true, 60],
  ];
  it.each(cases)('%s', (_label, text, broken, timeout) => {
    const parsed = parseRunPolicy(text);
    expect(parsed.broken !== null).toBe(broken);
    expect(parsed.policy.timeoutSecs).toBe(timeout);
    if (broken) expect(parsed.policy.allow).toEqual([]);
  });
  it('clampTimeout rounds', () => expect(clampTimeout(2.6)).toBe(3));
});

describe('notePending', () => {
  it('appends, dedupes with count++, and prunes settled entries', () => {
    let p = notePending(policy(), 'Curl', ['x'], 100);
    p = notePending(p, 'curl', ['x'], 200);
    p = notePending(p, 'wget', [], 300);
    expect(p.pending).toEqual([
      { command: 'curl', args: ['x'], firstRequestedAtMs: 100, count: 2 },
      { command: 'wget', args: [], firstRequestedAtMs: 300, count: 1 },
    ]);
    const settled = notePending({ ...p, allow: ['wget'] }, 'make', [], 400);
    expect(settled.pending.map((e) => e.command)).toEqual(['curl', 'make']);
  });

  it(`keeps at most ${MAX_PENDING}, evicting the oldest`, () => {
    let p = policy();
    for (let i = 0; i < MAX_PENDING + 3; i += 1) p = notePending(p, `cmd${i}`, [], 1000 + i);
    expect(p.pending).toHaveLength(MAX_PENDING);
    expect(p.pending[0]?.command).toBe('cmd3');
    expect(p.pending.at(-1)?.command).toBe(`cmd${MAX_PENDING + 2}`);
  });
});

describe('recordApproval', () => {
  it('adds the exact pattern once and clears the pending entry', () => {
    let p = notePending(policy(), 'make', ['all'], 1);
    p = recordApproval(p, 'Make', ['all']);
    p = recordApproval(p, 'make', ['all']);
    expect(p.allow).toEqual(['make all']);
    expect(p.pending).toEqual([]);
    expect(decide(p, 'make', ['all'])).toBe('allowed');
    expect(decide(p, 'make', ['all', 'x'])).toBe('unknown');
  });
});
