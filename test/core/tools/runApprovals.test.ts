import { describe, expect, it } from 'vitest';
import { approveRequest, consumeOnce, patternProblem, prefixPattern, rejectRequest } from '../../../src/core/tools/runApprovals.js';
import { decide, defaultRunPolicy, notePending, parseRunPolicy, serializeRunPolicy, type RunPolicy } from '../../../src/core/tools/runPolicy.js';

const withPending = (...lines: Array<[string, string[]]>): RunPolicy =>
  lines.reduce((p, [c, a], i) => notePending(p, c, a, 100 + i, { cwd: '/work', reason: `why ${i}` }), defaultRunPolicy());

describe('approveRequest / rejectRequest', () => {
  const cases: Array<[string, (p: RunPolicy) => { found: boolean; policy: RunPolicy }, Partial<RunPolicy>, string]> = [
    ['once', (p) => approveRequest(p, 'make', ['all'], 'once'), { once: ['make all'], allow: [], deny: [] }, 'allowedOnce'],
    ['always', (p) => approveRequest(p, 'make', ['all'], 'always'), { once: [], allow: ['make all'], deny: [] }, 'allowed'],
    ['prefix', (p) => approveRequest(p, 'make', ['all'], 'prefix'), { once: [], allow: ['make all *'], deny: [] }, 'allowed'],
    ['reject', (p) => rejectRequest(p, 'make', ['all']), { once: [], allow: [], deny: ['make all'] }, 'denied'],
  ];
  it.each(cases)('%s moves the request out of pending', (_name, act, lists, decision) => {
    const result = act(withPending(['make', ['all']], ['curl', ['x']]));
    expect(result.found).toBe(true);
    expect(result.policy).toMatchObject(lists);
    expect(result.policy.pending.map((p) => p.command)).toEqual(['curl']);
    expect(decide(result.policy, 'make', ['all'])).toBe(decision);
  });

  it('a request that is no longer pending is notFound and changes nothing', () => {
    const p = withPending(['curl', ['x']]);
    expect(approveRequest(p, 'make', ['all'], 'always')).toEqual({ found: false, policy: p });
    expect(rejectRequest(p, 'curl', ['y'])).toEqual({ found: false, policy: p });
  });

  it('matches the command case-insensitively, the arguments exactly', () => {
    const p = withPending(['make', ['All']]);
    expect(approveRequest(p, 'MAKE', ['All'], 'once').found).toBe(true);
    expect(approveRequest(p, 'make', ['all'], 'once').found).toBe(false);
  });

  it('a prefix approval also settles other pending lines it covers', () => {
    const p = withPending(['git', ['log', '-1']], ['git', ['log', '--stat']], ['git', ['push']]);
    const next = approveRequest(p, 'git', ['log', '-1'], 'prefix').policy;
    expect(next.allow).toEqual(['git log *']);
    expect(next.pending.map((e) => e.args)).toEqual([['push']]);
  });

  it('reject withdraws a one-run grant of the same line', () => {
    // A grant and a request for the same line can meet when run.json was edited by hand.
    const p = { ...withPending(['make', ['all']]), once: ['make all', 'ls'] };
    expect(rejectRequest(p, 'make', ['all']).policy.once).toEqual(['ls']);
  });
});

describe('consumeOnce', () => {
  it('spends exactly one grant', () => {
    const p: RunPolicy = { ...defaultRunPolicy(), once: ['make all', 'make all', 'ls'] };
    const next = consumeOnce(p, 'make', ['all']);
    expect(next.once).toEqual(['make all', 'ls']);
    expect(consumeOnce(next, 'make', ['x'])).toBe(next);
  });
});

describe('prefixPattern and patternProblem', () => {
  it.each<[string, string[], string]>([
    ['git', ['log', '-1'], 'git log *'],
    ['ls', [], 'ls *'],
  ])('%s %j → %s', (c, a, want) => expect(prefixPattern(c, a)).toBe(want));

  it.each<[string, string | null]>([
    ['git status', null],
    ['npm test *', null],
    ['', 'is empty'],
    ['*', 'starts with *, which never matches (name a program first)'],
    ['/bin/ls', 'names "/bin/ls", which is not a bare program name (no / \\ :)'],
  ])('%j → %j', (pattern, want) => expect(patternProblem(pattern)).toBe(want));
});

describe('run.json text: once, request context and unknown keys', () => {
  it('parses once, cwd and reason, and writes back unknown keys', () => {
    const text = JSON.stringify({
      version: 1,
      allow: ['ls'],
      once: ['make all'],
      pending: [{ command: 'curl', args: ['x'], firstRequestedAtMs: 5, count: 2, cwd: '/w', reason: 'fetch the page' }],
      comment: 'kept by the original',
      futureKey: { nested: true },
    });
    const parsed = parseRunPolicy(text);
    expect(parsed.broken).toBeNull();
    expect(parsed.policy.once).toEqual(['make all']);
    expect(parsed.policy.pending[0]).toMatchObject({ cwd: '/w', reason: 'fetch the page' });
    const again = JSON.parse(serializeRunPolicy({ ...parsed.policy, once: [] }, parsed.raw)) as Record<string, unknown>;
    expect(again).toMatchObject({ comment: 'kept by the original', futureKey: { nested: true }, allow: ['ls'] });
    expect('once' in again).toBe(false);
  });

  it('a non-array once makes the file broken', () => {
    expect(parseRunPolicy('{"once": "make"}').broken).toBe('`once` must be an array of strings');
  });
});
