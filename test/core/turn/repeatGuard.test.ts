import { describe, expect, it } from 'vitest';
import { canonicalJson, RepeatGuard } from '../../../src/core/turn/repeatGuard.js';

describe('canonicalJson', () => {
  it.each([
    [{ b: 1, a: { d: [1, { y: 2, x: 1 }], c: null } }, '{"a":{"c":null,"d":[1,{"x":1,"y":2}]},"b":1}'],
    [undefined, 'null'],
    ['s', '"s"'],
  ])('%j', (value, expected) => {
    expect(canonicalJson(value)).toBe(expected);
  });
});

describe('RepeatGuard', () => {
  type Step = [name: string, args: unknown, body: string, blocked: boolean];
  const run = (steps: Step[]): Array<boolean | number> =>
    (() => {
      const guard = new RepeatGuard();
      return steps.map(([name, args, body]) => {
        const v = guard.check(name, args);
        if (v.blocked) return v.repeats;
        guard.record(v.key, body);
        return false;
      });
    })();

  it.each<[string, Step[], Array<boolean | number>]>([
    ['third identical call with the same body twice is blocked', [['t', { q: 1 }, 'A', false], ['t', { q: 1 }, 'A', false], ['t', { q: 1 }, 'A', true]], [false, false, 3]],
    ['key order does not matter', [['t', { a: 1, b: 2 }, 'A', false], ['t', { b: 2, a: 1 }, 'A', false], ['t', { a: 1, b: 2 }, 'A', true]], [false, false, 3]],
    ['a different body resets the count', [['t', {}, 'A', false], ['t', {}, 'B', false], ['t', {}, 'B', false], ['t', {}, 'B', true]], [false, false, false, 3]],
    ['reason is part of the key', [['t', { reason: 'x' }, 'A', false], ['t', { reason: 'x' }, 'A', false], ['t', { reason: 'y' }, 'A', false]], [false, false, false]],
    ['other tool names are separate', [['t', {}, 'A', false], ['t', {}, 'A', false], ['u', {}, 'A', false]], [false, false, false]],
    ['stays blocked', [['t', {}, 'A', false], ['t', {}, 'A', false], ['t', {}, 'A', true], ['t', {}, 'A', true]], [false, false, 3, 3]],
  ])('%s', (_name, steps, expected) => {
    expect(run(steps)).toEqual(expected);
  });
});
