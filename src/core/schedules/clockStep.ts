/**
 * Schedules across a wall-clock step (issue 28), as pure functions. The ticker reads the wall clock and a monotonic
 * clock at every tick; between two readings the wall clock should move as far as the monotonic one. When it moved
 * more than `CLOCK_STEP_TOLERANCE_MS` further (forward) or less (back), the difference is a step (NTP correcting a
 * wrong clock, `date -s`, a VM restored), and the rule is:
 *
 * - Interval schedules count elapsed time. A step BACK moves their anchor (the last consumed due, else the creation
 *   time) back by the same amount, so the next firing comes as long after the last one as it would have without the
 *   step: never silent until the wall clock catches up, never a burst. A step FORWARD past a due fires ONE catch-up
 *   now (as after a stopped process; a resumed suspend looks the same, and time really passed there) and the pace
 *   resumes from now: the anchor becomes one interval before now, so the next due is a whole interval later. A step
 *   forward that passed no due changes nothing.
 * - Whatever the ticker did or did not see (the process was stopped during the step, or the step was within the
 *   tolerance), an interval anchor that lies AFTER now is re-anchored to now: the next due is one interval from now.
 * - Daily and weekly schedules follow the wall clock. A due already consumed is never fired again, so a step back
 *   of a few hours (or a DST-sized one) re-fires nothing. Only when the consumed due lies more than a whole period
 *   (1 day / 7 days) after now — it was consumed on a clock that was far ahead — it is replaced by the latest due
 *   at or before now, so the next occurrence fires instead of waiting for the old clock's date.
 */
import { latestDue, type DueInput } from './due.js';
import type { TimeZone } from './timeZone.js';

/** Drift between the wall and the monotonic clock (ms) below which nothing counts as a step. */
export const CLOCK_STEP_TOLERANCE_MS = 5_000;

const DAY_MS = 24 * 60 * 60_000;

/** Both clocks read at one moment (ms; the monotonic one from any fixed origin). */
export interface ClockReading {
  wallMs: number;
  monoMs: number;
}

/**
 * How far the wall clock stepped between two readings (ms; negative = back), or 0 when it moved with the monotonic
 * clock within `toleranceMs` (or there is no earlier reading).
 */
export function clockStep(prev: ClockReading | null, now: ClockReading, toleranceMs: number = CLOCK_STEP_TOLERANCE_MS): number {
  if (prev === null) return 0;
  const drift = now.wallMs - prev.wallMs - (now.monoMs - prev.monoMs);
  return Math.abs(drift) > toleranceMs ? drift : 0;
}

/**
 * The `lastConsumedDueMs` a schedule should hold at `nowMs` after a step of `stepMs` (0 = none seen), or null when
 * it stays as it is. See the file comment for the rule.
 */
export function reanchoredConsumed(task: DueInput, stepMs: number, nowMs: number, zone: TimeZone): number | null {
  const r = task.recurrence;
  if (r.kind === 'interval') {
    const anchor = task.lastConsumedDueMs ?? task.createdAtMs;
    const every = r.everyMinutes * 60_000;
    const moved = stepMs < 0 ? anchor + stepMs : stepMs > 0 && nowMs - anchor >= every ? nowMs - every : anchor;
    const next = moved > nowMs ? nowMs : moved;
    return next === anchor ? null : next;
  }
  const consumed = task.lastConsumedDueMs;
  const periodMs = r.kind === 'daily' ? DAY_MS : 7 * DAY_MS;
  if (consumed === null || consumed <= nowMs + periodMs) return null;
  return latestDue(task, nowMs, zone) ?? nowMs;
}
