import { describe, expect, it } from 'vitest';
import { turnTicks } from '../../../src/gui/client/lib/turnTicks.js';

describe('turnTicks', () => {
  it.each<[string, number, number, number, number[]]>([
    ['two turns: 1 and 2, never 1.5', 1, 2, 10, [1, 2]],
    ['a padded fractional range keeps whole numbers inside', 0.6, 3.4, 10, [1, 2, 3]],
    ['one turn', 1, 1, 10, [1]],
    ['many turns step by 2', 1, 15, 8, [2, 4, 6, 8, 10, 12, 14]],
    ['many more step by 5, 10 …', 1, 100, 10, [10, 20, 30, 40, 50, 60, 70, 80, 90, 100]],
    ['no room still gives one tick', 1, 3, 0, [1]],
    ['an empty range', 1.2, 1.8, 10, []],
  ])('%s', (_name, min, max, most, expected) => {
    const ticks = turnTicks(min, max, most);
    expect(ticks).toEqual(expected);
    expect(ticks.every(Number.isInteger)).toBe(true);
  });
});
