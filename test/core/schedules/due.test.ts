import { describe, expect, it } from 'vitest';
import { decide, GRACE_MS, nextDue, type DueDecision, type DueInput } from '../../../src/core/schedules/due.js';
import { fixedOffsetZone, ianaZone, utcZone, type TimeZone } from '../../../src/core/schedules/timeZone.js';
import type { Recurrence } from '../../../src/core/schedules/types.js';

const MIN = 60_000;
const DAY = 24 * 60 * MIN;
/** Thursday 2026-01-15 09:00 UTC. */
const T = Date.UTC(2026, 0, 15, 9, 0);

function task(recurrence: Recurrence, extra: Partial<DueInput> = {}): DueInput {
  return { recurrence, createdAtMs: T, lastConsumedDueMs: null, enabled: true, ...extra };
}

const every10: Recurrence = { kind: 'interval', everyMinutes: 10 };
const every60: Recurrence = { kind: 'interval', everyMinutes: 60 };
const daily9: Recurrence = { kind: 'daily', hour: 9, minute: 0 };
const thu9: Recurrence = { kind: 'weekly', weekday: 'thu', hour: 9, minute: 0 };
const mon9: Recurrence = { kind: 'weekly', weekday: 'mon', hour: 9, minute: 0 };

const fire = (dueMs: number): DueDecision => ({ kind: 'fire', dueMs });
const late = (dueMs: number): DueDecision => ({ kind: 'skip', dueMs, reason: 'late' });
const wait = (nextDueMs: number | null, reason: 'disabled' | 'not_due' | 'consumed'): DueDecision => ({
  kind: 'wait',
  nextDueMs,
  reason,
});

const rows: Array<[string, DueInput, number, DueDecision, TimeZone?]> = [
  // interval
  ['interval: less than one step after creation waits', task(every10), T + 5 * MIN, wait(T + 10 * MIN, 'not_due')],
  ['interval: exactly one step fires', task(every10), T + 10 * MIN, fire(T + 10 * MIN)],
  ['interval: between steps fires the latest step', task(every10), T + 25 * MIN, fire(T + 20 * MIN)],
  ['interval: anchor is the consumed due', task(every10, { lastConsumedDueMs: T + 20 * MIN }), T + 25 * MIN, wait(T + 30 * MIN, 'not_due')],
  ['interval: two days stopped fires ONCE, the last step', task(every10, { lastConsumedDueMs: T }), T + 2 * DAY + 3 * MIN, fire(T + 2 * DAY)],
  ['interval: 60 min paused 2,900 min still fires (no grace)', task(every60), T + 2900 * MIN, fire(T + 2880 * MIN)],
  ['interval: phase kept from the consumed due, not the fire time', task(every10, { lastConsumedDueMs: T + 2 * DAY }), T + 2 * DAY + 10 * MIN + 59_000, fire(T + 2 * DAY + 10 * MIN)],
  ['disabled: waits and consumes nothing', task(every10, { enabled: false }), T + 25 * MIN, wait(null, 'disabled')],
  // daily, UTC
  ['daily: at the minute fires', task(daily9), T, fire(T)],
  ['daily: 5 min late still fires (grace is inclusive)', task(daily9), T + GRACE_MS, fire(T)],
  ['daily: 1 ms past grace is skipped', task(daily9), T + GRACE_MS + 1, late(T)],
  ['daily: 6 min late is skipped', task(daily9), T + 6 * MIN, late(T)],
  ['daily: before the time, yesterday is the due (late)', task(daily9), T - MIN, late(T - DAY)],
  ['daily: yesterday consumed, before the time waits', task(daily9, { lastConsumedDueMs: T - DAY }), T - MIN, wait(T, 'consumed')],
  ['daily: today consumed waits for tomorrow', task(daily9, { lastConsumedDueMs: T }), T + 3 * MIN, wait(T + DAY, 'consumed')],
  // weekly, UTC (T is a Thursday)
  ['weekly: on the day at the time fires', task(thu9), T + 2 * MIN, fire(T)],
  ['weekly: on the day before the time → last week (late)', task(thu9), T - 60 * MIN, late(T - 7 * DAY)],
  ['weekly: other weekday, consumed → waits for next Monday', task(mon9, { lastConsumedDueMs: T - 3 * DAY }), T + 2 * MIN, wait(T + 4 * DAY, 'consumed')],
  ['weekly: other weekday, unconsumed → last Monday is late', task(mon9), T + 2 * MIN, late(T - 3 * DAY)],
  // local time with an explicit offset
  ['JST (+09:00): 09:01 local fires the 09:00 local due', task(daily9), Date.UTC(2026, 0, 15, 0, 1), fire(Date.UTC(2026, 0, 15, 0, 0)), fixedOffsetZone(540)],
  ['same instant in UTC: 09:00 not yet → yesterday, late', task(daily9), Date.UTC(2026, 0, 15, 0, 1), late(Date.UTC(2026, 0, 14, 9, 0)), utcZone],
  ['-05:00: 23:30 local due crosses the UTC midnight', task({ kind: 'daily', hour: 23, minute: 30 }), Date.UTC(2026, 0, 16, 4, 32), fire(Date.UTC(2026, 0, 16, 4, 30)), fixedOffsetZone(-300)],
  ['+09:00 weekly: Thursday local is Wednesday in UTC', task({ kind: 'weekly', weekday: 'thu', hour: 8, minute: 0 }), Date.UTC(2026, 0, 14, 23, 1), fire(Date.UTC(2026, 0, 14, 23, 0)), fixedOffsetZone(540)],
];

describe('decide (firing rule)', () => {
  it.each(rows)('%s', (_name, input, now, expected, zone = utcZone) => {
    expect(decide(input, now, zone)).toEqual(expected);
  });
});

describe('DST (Europe/Berlin): a skipped or repeated local time never fires and never throws', () => {
  const berlin = ianaZone('Europe/Berlin');
  it('spring forward: 02:30 does not exist on 2026-03-29', () => {
    // 03:31 CEST = 01:31 UTC.
    const now = Date.UTC(2026, 2, 29, 1, 31);
    const t = task({ kind: 'daily', hour: 2, minute: 30 }, { lastConsumedDueMs: Date.UTC(2026, 2, 28, 1, 30) });
    expect(decide(t, now, berlin)).toEqual(wait(Date.UTC(2026, 2, 30, 0, 30), 'not_due'));
  });
  it('fall back: 02:30 happens twice on 2026-10-25', () => {
    const now = Date.UTC(2026, 9, 25, 1, 31); // 02:31 CET, the second 02:31
    const t = task({ kind: 'daily', hour: 2, minute: 30 }, { lastConsumedDueMs: Date.UTC(2026, 9, 24, 0, 30) });
    expect(decide(t, now, berlin).kind).toBe('wait');
  });
  it('an ordinary day converts with the summer offset', () => {
    const now = Date.UTC(2026, 6, 1, 7, 1); // 09:01 CEST
    expect(decide(task(daily9), now, berlin)).toEqual(fire(Date.UTC(2026, 6, 1, 7, 0)));
  });
});

describe('nextDue', () => {
  it('interval before the anchor is one step after it', () => {
    expect(nextDue(task(every10), T - 30 * MIN, utcZone)).toBe(T + 10 * MIN);
  });
  it('is strictly after now on an exact step', () => {
    expect(nextDue(task(every10), T + 20 * MIN, utcZone)).toBe(T + 30 * MIN);
    expect(nextDue(task(daily9), T, utcZone)).toBe(T + DAY);
  });
});
