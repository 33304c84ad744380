import { describe, expect, it } from 'vitest';
import { clockStep, reanchoredConsumed, CLOCK_STEP_TOLERANCE_MS } from '../../../src/core/schedules/clockStep.js';
import type { DueInput } from '../../../src/core/schedules/due.js';
import { utcZone } from '../../../src/core/schedules/timeZone.js';

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
const T = Date.UTC(2026, 0, 15, 9, 0);

describe('clockStep: how far the wall clock stepped against the monotonic one', () => {
  const at = (wallMs: number, monoMs: number) => ({ wallMs, monoMs });
  it.each([
    ['no earlier reading', null, at(T, 5), 0],
    ['both moved 30 s', at(T, 1_000), at(T + 30_000, 31_000), 0],
    ['wall 3 s ahead of monotonic (within the tolerance)', at(T, 0), at(T + 33_000, 30_000), 0],
    ['exactly the tolerance', at(T, 0), at(T + 30_000 + CLOCK_STEP_TOLERANCE_MS, 30_000), 0],
    ['6 s back', at(T, 0), at(T + 24_000, 30_000), -6_000],
    ['2 h back', at(T, 0), at(T + 30_000 - 2 * HOUR, 30_000), -2 * HOUR],
    ['1 h forward (DST-sized)', at(T, 0), at(T + 30_000 + HOUR, 30_000), HOUR],
    ['2 h forward', at(T, 0), at(T + 30_000 + 2 * HOUR, 30_000), 2 * HOUR],
  ])('%s', (_name, prev, now, step) => {
    expect(clockStep(prev, now)).toBe(step);
  });
});

describe('reanchoredConsumed: the anchor a schedule holds after a step', () => {
  const interval = (lastConsumedDueMs: number | null, createdAtMs = T - DAY): DueInput => ({
    recurrence: { kind: 'interval', everyMinutes: 1 }, createdAtMs, lastConsumedDueMs, enabled: true,
  });
  const daily = (lastConsumedDueMs: number | null): DueInput => ({
    recurrence: { kind: 'daily', hour: 9, minute: 0 }, createdAtMs: T - 30 * DAY, lastConsumedDueMs, enabled: true,
  });
  const weekly = (lastConsumedDueMs: number | null): DueInput => ({
    recurrence: { kind: 'weekly', weekday: 'thu', hour: 9, minute: 0 }, createdAtMs: T - 30 * DAY, lastConsumedDueMs, enabled: true,
  });
  // After a step of s at a tick, now = (last tick + 30 s) + s; the last due was consumed 20 s before the last tick.
  it.each([
    ['interval, no step, anchor in the past: unchanged', interval(T - 20_000), 0, T + 30_000, null],
    ['interval, 2 h back: the anchor moves 2 h back (same elapsed time to the next due)', interval(T - 20_000), -2 * HOUR, T + 30_000 - 2 * HOUR, T - 20_000 - 2 * HOUR],
    ['interval, 1 h back (DST-sized)', interval(T - 20_000), -HOUR, T + 30_000 - HOUR, T - 20_000 - HOUR],
    ['interval, 6 s back', interval(T - 20_000), -6_000, T + 24_000, T - 26_000],
    ['interval, 2 h forward: one interval before now (one catch-up now, the next a whole interval later)', interval(T - 20_000), 2 * HOUR, T + 30_000 + 2 * HOUR, T + 30_000 + 2 * HOUR - MIN],
    ['interval, 1 h forward (DST-sized)', interval(T - 20_000), HOUR, T + 30_000 + HOUR, T + 30_000 + HOUR - MIN],
    ['interval, 6 s forward that passed no due: unchanged', interval(T - 20_000), 6_000, T + 36_000, null],
    ['interval, never fired, 2 h back: the creation anchor moves', interval(null, T - 50_000), -2 * HOUR, T + 30_000 - 2 * HOUR, T - 50_000 - 2 * HOUR],
    ['interval, a step back nobody saw (anchor after now): re-anchored to now', interval(T), 0, T - 2 * HOUR, T - 2 * HOUR],
    ['interval, never fired, created after now: re-anchored to now', interval(null, T), 0, T - HOUR, T - HOUR],
    ['daily, 2 h back over its consumed 09:00: unchanged (09:00 never fires twice)', daily(T), -2 * HOUR, T + 30_000 - 2 * HOUR, null],
    ['daily, 2 h forward: unchanged', daily(T - DAY), 2 * HOUR, T + 2 * HOUR, null],
    ['daily, consumed 3 days ahead of now: the latest due at or before now', daily(T + 3 * DAY), 0, T + HOUR, T],
    ['daily, consumed exactly one day ahead: unchanged', daily(T + DAY), 0, T, null],
    ['weekly, consumed 3 days ahead: within a week, unchanged', weekly(T + 3 * DAY), 0, T, null],
    ['weekly, consumed 10 days ahead: the latest due at or before now', weekly(T + 10 * DAY), 0, T + HOUR, T],
  ])('%s', (_name, task, step, now, expected) => {
    expect(reanchoredConsumed(task, step, now, utcZone)).toBe(expected);
  });
});
