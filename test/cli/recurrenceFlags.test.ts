/** `schedules add` recurrence flags → a recurrence: the accepted spellings and the refused ones (with the fix). */
import { describe, expect, it } from 'vitest';
import { recurrenceOf } from '../../src/cli/manage/recurrenceFlags.js';

describe('recurrenceOf', () => {
  it.each([
    [{ every: 10 }, { kind: 'interval', everyMinutes: 10 }],
    [{ daily: '9:05' }, { kind: 'daily', hour: 9, minute: 5 }],
    [{ daily: '23:59' }, { kind: 'daily', hour: 23, minute: 59 }],
    [{ weekly: 'fri 17:00' }, { kind: 'weekly', weekday: 'fri', hour: 17, minute: 0 }],
    [{ weekly: 'Monday@08:30' }, { kind: 'weekly', weekday: 'mon', hour: 8, minute: 30 }],
  ])('%o → %o', (flags, recurrence) => {
    expect(recurrenceOf(flags)).toEqual({ ok: true, recurrence });
  });

  it.each([
    [{}, 'needs a recurrence'],
    [{ every: 5, daily: '09:00' }, '--every and --daily cannot be combined'],
    [{ every: 0 }, 'not a whole number of minutes'],
    [{ daily: '24:00' }, 'not a time of day'],
    [{ daily: '9' }, 'not a time of day'],
    [{ weekly: 'xyz 09:00' }, 'not a weekday and a time'],
    [{ weekly: 'fri' }, 'not a weekday and a time'],
  ])('%o is refused: %s', (flags, message) => {
    const parsed = recurrenceOf(flags);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) {
      expect(parsed.message).toContain(message);
      expect(parsed.fix).toContain('--every <minutes>');
    }
  });
});
