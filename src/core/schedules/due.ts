/**
 * The firing rule (reference/ops.md §2.2) as pure functions of (schedule, now, zone).
 *
 * - The due is the LATEST tick point at or before now; `lastConsumedDueMs` holds the due that was consumed (fired
 *   or skipped), never the wall-clock fire time, so interval steps keep their phase.
 * - An interval schedule only ever yields its last tick point and has no grace: stopped for two days, it fires
 *   once on resume (never once per missed slot, and never "too late to fire").
 * - A daily/weekly due more than 5 minutes old is consumed without firing (`skip`, reason `late`).
 * - A local time the zone skips or repeats (DST) yields no due: no fire, no exception.
 */
import { fromLocal, toLocal, type TimeZone } from './timeZone.js';
import type { Recurrence, ScheduledTask, Weekday } from './types.js';

/** Grace for wall-clock kinds, in ms: a daily/weekly due older than this is skipped, not fired. */
export const GRACE_MS = 5 * 60_000;

const MINUTE_MS = 60_000;
const DAY_INDEX: Record<Weekday, number> = { sun: 0, mon: 1, tue: 2, wed: 3, thu: 4, fri: 5, sat: 6 };

/** What the rule says about one schedule at one instant. All times are ms since epoch. */
export type DueDecision =
  | { kind: 'fire'; dueMs: number }
  | { kind: 'skip'; dueMs: number; reason: 'late' }
  | { kind: 'wait'; nextDueMs: number | null; reason: 'disabled' | 'not_due' | 'consumed' };

/** The fields of a schedule the rule reads. */
export type DueInput = Pick<ScheduledTask, 'recurrence' | 'createdAtMs' | 'lastConsumedDueMs' | 'enabled'>;

function intervalMs(recurrence: Extract<Recurrence, { kind: 'interval' }>): number {
  return recurrence.everyMinutes * MINUTE_MS;
}

/** Days to step back from a local date with weekday `today` to reach `target` (0 = today). */
function daysBackTo(today: number, target: number): number {
  return (today - target + 7) % 7;
}

/**
 * The latest due at or before `nowMs` (ms), or null if there is none yet (interval: less than one step since the
 * anchor; wall clock: the occurrence falls in a DST gap or fold).
 */
export function latestDue(task: DueInput, nowMs: number, zone: TimeZone): number | null {
  const r = task.recurrence;
  if (r.kind === 'interval') {
    const anchor = task.lastConsumedDueMs ?? task.createdAtMs;
    const every = intervalMs(r);
    if (nowMs - anchor < every) return null;
    return anchor + every * Math.floor((nowMs - anchor) / every);
  }
  const local = toLocal(zone, nowMs);
  const notYetToday = local.hour * 60 + local.minute < r.hour * 60 + r.minute;
  let back: number;
  if (r.kind === 'daily') {
    back = notYetToday ? 1 : 0;
  } else {
    back = daysBackTo(local.weekday, DAY_INDEX[r.weekday]);
    if (back === 0 && notYetToday) back = 7;
  }
  const due = fromLocal(zone, local.year, local.month, local.day - back, r.hour, r.minute);
  // A transition can put the instant after now even though the wall time has passed; never fire early.
  return due !== null && due <= nowMs ? due : null;
}

/** The first tick point strictly after `nowMs` (ms), for display (`nextDueMs`); null if none within 15 days. */
export function nextDue(task: DueInput, nowMs: number, zone: TimeZone): number | null {
  const r = task.recurrence;
  if (r.kind === 'interval') {
    const anchor = task.lastConsumedDueMs ?? task.createdAtMs;
    const every = intervalMs(r);
    const steps = nowMs < anchor ? 1 : Math.floor((nowMs - anchor) / every) + 1;
    return anchor + every * steps;
  }
  const local = toLocal(zone, nowMs);
  for (let ahead = 0; ahead <= 15; ahead += 1) {
    if (r.kind === 'weekly') {
      const weekday = new Date(Date.UTC(local.year, local.month, local.day + ahead)).getUTCDay();
      if (weekday !== DAY_INDEX[r.weekday]) continue;
    }
    const at = fromLocal(zone, local.year, local.month, local.day + ahead, r.hour, r.minute);
    if (at !== null && at > nowMs) return at;
  }
  return null;
}

/**
 * The decision for one schedule at `nowMs` (ms) in `zone`. Disabled consumes nothing, so after re-enabling the
 * rule evaluates whatever due is current then.
 */
export function decide(task: DueInput, nowMs: number, zone: TimeZone): DueDecision {
  if (!task.enabled) return { kind: 'wait', nextDueMs: null, reason: 'disabled' };
  const due = latestDue(task, nowMs, zone);
  if (due === null) return { kind: 'wait', nextDueMs: nextDue(task, nowMs, zone), reason: 'not_due' };
  if (task.lastConsumedDueMs !== null && task.lastConsumedDueMs >= due) {
    return { kind: 'wait', nextDueMs: nextDue(task, nowMs, zone), reason: 'consumed' };
  }
  if (task.recurrence.kind !== 'interval' && nowMs - due > GRACE_MS) {
    return { kind: 'skip', dueMs: due, reason: 'late' };
  }
  return { kind: 'fire', dueMs: due };
}
