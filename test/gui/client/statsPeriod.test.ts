import { describe, expect, it } from 'vitest';
import { monthPeriod, parseClosingDay } from '../../../src/gui/client/lib/statsPeriod.js';

const at = (y: number, m: number, d: number, h = 12): number => new Date(y, m - 1, d, h).getTime();
const day = (ms: number): string => {
  const d = new Date(ms);
  return `${d.getFullYear()}-${d.getMonth() + 1}-${d.getDate()} ${d.getHours()}:${d.getMinutes()}`;
};

describe('monthPeriod', () => {
  it.each([
    ['calendar month', 'eom' as const, at(2026, 11, 15), 0, '2026-11', '2026-11-1 0:0', '2026-12-1 0:0'],
    ['closing day 20, before it', 20, at(2026, 11, 15), 0, '2026-11', '2026-10-21 0:0', '2026-11-21 0:0'],
    ['closing day 20, on it', 20, at(2026, 11, 20, 23), 0, '2026-11', '2026-10-21 0:0', '2026-11-21 0:0'],
    ['closing day 20, after it', 20, at(2026, 11, 21, 0), 0, '2026-12', '2026-11-21 0:0', '2026-12-21 0:0'],
    ['a month back across the year', 'eom' as const, at(2026, 1, 10), -1, '2025-12', '2025-12-1 0:0', '2026-1-1 0:0'],
    ['closing day 28 in February', 28, at(2026, 2, 28, 9), 0, '2026-02', '2026-1-29 0:0', '2026-3-1 0:0'],
    ['month end in February', 'eom' as const, at(2024, 2, 29), 0, '2024-02', '2024-2-1 0:0', '2024-3-1 0:0'],
  ])('%s', (_name, closing, ref, offset, label, since, until) => {
    const p = monthPeriod(closing, ref, offset);
    expect([p.label, day(p.sinceMs), day(p.untilMs)]).toEqual([label, since, until]);
  });

  it('parses a stored closing day, anything odd is month end', () => {
    expect([parseClosingDay('20'), parseClosingDay(5), parseClosingDay('29'), parseClosingDay(null), parseClosingDay('eom')]).toEqual([20, 5, 'eom', 'eom', 'eom']);
  });
});
