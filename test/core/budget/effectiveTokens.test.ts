import { describe, expect, it } from 'vitest';
import {
  accountableUsage,
  effectiveMilli,
  effectiveTokens,
  estimateMilli,
} from '../../../src/core/budget/effectiveTokens.js';
import type { Usage } from '../../../src/core/llm/canonical.js';

const u = (prompt: number, completion: number, cacheRead = 0, cacheWrite = 0, reasoning = 0): Usage => ({
  prompt,
  completion,
  cacheRead,
  cacheWrite,
  cacheWrite1h: 0,
  reasoning,
});

describe('effectiveMilli', () => {
  it.each([
    ['plain', u(1000, 100), 1000 * 1000 + 100 * 4000],
    ['cached part at a tenth', u(1000, 0, 800), 200 * 1000 + 800 * 100],
    ['cacheWrite counts at x1 as part of prompt', u(1000, 0, 0, 600), 1000 * 1000],
    ['reasoning is ignored', u(0, 10, 0, 0, 9), 10 * 4000],
    ['cacheRead above prompt saturates at 0', u(100, 0, 150), 150 * 100],
    ['all zero', u(0, 0), 0],
  ])('%s', (_name, usage, expected) => {
    expect(effectiveMilli(usage)).toBe(expected);
  });
});

describe('effectiveTokens', () => {
  it.each([
    [0, 0],
    [1, 1],
    [1000, 1],
    [1001, 2],
    [400_100, 401],
  ])('%i milli → %i tokens', (milli, tokens) => {
    expect(effectiveTokens(milli)).toBe(tokens);
  });
});

describe('estimateMilli', () => {
  it.each([
    ['floor when the last call was cheap', 5_000, 10_000_000, 1_000_000],
    ['last call when above the floor', 3_000_000, 10_000_000, 3_000_000],
    ['ceiling caps the estimate', 30_000_000, 10_000_000, 10_000_000],
    ['ceiling below the floor wins', 0, 500_000, 500_000],
  ])('%s', (_name, last, ceiling, expected) => {
    expect(estimateMilli(last, ceiling)).toBe(expected);
  });
});

describe('accountableUsage', () => {
  it('keeps reported usage', () => {
    const usage = u(10, 2);
    expect(accountableUsage(usage, 9999, 9999)).toBe(usage);
  });
  it('estimates bytes/4 rounded up when the provider reported nothing', () => {
    expect(accountableUsage(u(0, 0), 9, 5)).toEqual(u(3, 2));
  });
});
