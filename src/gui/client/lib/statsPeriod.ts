/**
 * Billing months for the stats view (pure, local time): a month closes at the end of its closing day (1–28, or the
 * last day of the month), so with closing day 20 the month "2026-11" runs from Oct 21 00:00 to Nov 21 00:00.
 */

/** A closing day: 1..28, or `eom` (the last day of each month: calendar months). */
export type ClosingDay = number | 'eom';

/** One half-open period [sinceMs, untilMs) and the month it closes in (`YYYY-MM`). */
export interface MonthPeriod {
  sinceMs: number;
  untilMs: number;
  label: string;
}

const daysIn = (year: number, month: number): number => new Date(year, month + 1, 0).getDate();

/** Local midnight after the closing day of (year, month); month may run outside 0..11. */
function closesAt(closing: ClosingDay, year: number, month: number): number {
  const first = new Date(year, month, 1);
  const y = first.getFullYear();
  const m = first.getMonth();
  const day = closing === 'eom' ? daysIn(y, m) : Math.min(closing, daysIn(y, m));
  return new Date(y, m, day + 1).getTime();
}

/** A stored value read back as a closing day (anything else: month end). */
export function parseClosingDay(value: unknown): ClosingDay {
  const n = typeof value === 'string' ? Number(value) : value;
  return typeof n === 'number' && Number.isInteger(n) && n >= 1 && n <= 28 ? n : 'eom';
}

/** The billing month holding `refMs`, moved by `offset` months (−1 = the one before). */
export function monthPeriod(closing: ClosingDay, refMs: number, offset = 0): MonthPeriod {
  const ref = new Date(refMs);
  let year = ref.getFullYear();
  let month = ref.getMonth();
  if (refMs >= closesAt(closing, year, month)) month += 1;
  month += offset;
  const untilMs = closesAt(closing, year, month);
  const sinceMs = closesAt(closing, year, month - 1);
  const named = new Date(year, month, 1);
  year = named.getFullYear();
  return { sinceMs, untilMs, label: `${year}-${String(named.getMonth() + 1).padStart(2, '0')}` };
}
