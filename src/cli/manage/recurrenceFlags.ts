/**
 * `schedules add --every|--daily|--weekly` → the schedule's recurrence. Pure, so the table of accepted and refused
 * spellings is a unit test; the store still checks the result (hour, minute, weekday) as it checks the GUI's.
 */
import type { Recurrence, Weekday } from '../../core/schedules/types.js';

/** The three recurrence flags as parsed (exactly one must be given). */
export interface RecurrenceFlags {
  every?: number;
  daily?: string;
  weekly?: string;
}

/** A recurrence, or why the flags do not make one and how to fix them. */
export type RecurrenceParse = { ok: true; recurrence: Recurrence } | { ok: false; message: string; fix: string };

const WEEKDAYS: readonly Weekday[] = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];
const FIX = 'Give exactly one of --every <minutes>, --daily HH:MM or --weekly "DAY HH:MM" (DAY is mon…sun), e.g. --daily 09:00.';

/** `HH:MM` (24 h, local time) → hour and minute, or null. */
export function clockOf(text: string): { hour: number; minute: number } | null {
  const m = /^(\d{1,2}):(\d{2})$/.exec(text.trim());
  if (m === null) return null;
  const hour = Number(m[1]);
  const minute = Number(m[2]);
  return hour <= 23 && minute <= 59 ? { hour, minute } : null;
}

/** The recurrence the flags name. */
export function recurrenceOf(flags: RecurrenceFlags): RecurrenceParse {
  const given = (['every', 'daily', 'weekly'] as const).filter((k) => flags[k] !== undefined);
  if (given.length !== 1) {
    return { ok: false, message: given.length === 0 ? 'schedules add needs a recurrence.' : `--${given.join(' and --')} cannot be combined.`, fix: FIX };
  }
  if (flags.every !== undefined) {
    if (!Number.isInteger(flags.every) || flags.every < 1) return { ok: false, message: `--every ${flags.every} is not a whole number of minutes ≥ 1.`, fix: FIX };
    return { ok: true, recurrence: { kind: 'interval', everyMinutes: flags.every } };
  }
  if (flags.daily !== undefined) {
    const clock = clockOf(flags.daily);
    if (clock === null) return { ok: false, message: `--daily ${JSON.stringify(flags.daily)} is not a time of day.`, fix: FIX };
    return { ok: true, recurrence: { kind: 'daily', ...clock } };
  }
  const m = /^([a-z]{3})[a-z]*(?:\s+|@)(\S+)$/i.exec((flags.weekly ?? '').trim());
  const weekday = m === null ? undefined : WEEKDAYS.find((d) => d === m[1]!.toLowerCase());
  const clock = m === null ? null : clockOf(m[2]!);
  if (weekday === undefined || clock === null) {
    return { ok: false, message: `--weekly ${JSON.stringify(flags.weekly)} is not a weekday and a time.`, fix: FIX };
  }
  return { ok: true, recurrence: { kind: 'weekly', weekday, ...clock } };
}
