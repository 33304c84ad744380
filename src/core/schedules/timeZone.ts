/**
 * Time zones for the firing rule (reference/ops.md §2.2): the rule takes "now" and the zone as parameters so
 * tests can pin both. A zone is only "the UTC offset in force at an instant"; local ↔ instant conversion is
 * derived from that, and a local time that does not exist (spring-forward gap) or exists twice (fall-back
 * fold) converts to `null`, which the rule reads as "no fire" — never an exception.
 */

/** Calendar fields of a local wall-clock time. `month` is 0–11 (like Date), `weekday` 0 = Sunday. */
export interface LocalTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  weekday: number;
}

/** A time zone as its offset function: minutes east of UTC in force at `utcMs` (ms since epoch). */
export interface TimeZone {
  readonly name: string;
  offsetMinutesAt(utcMs: number): number;
}

const MINUTE_MS = 60_000;
const HOUR_MS = 3_600_000;

/** UTC (offset 0 everywhere): the DST-free zone used by most tests. */
export const utcZone: TimeZone = { name: 'UTC', offsetMinutesAt: () => 0 };

/** A zone with one fixed offset (minutes east of UTC, e.g. +540 for JST). No DST. */
export function fixedOffsetZone(offsetMinutes: number): TimeZone {
  const sign = offsetMinutes < 0 ? '-' : '+';
  const abs = Math.abs(offsetMinutes);
  const name = `UTC${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
  return { name, offsetMinutesAt: () => offsetMinutes };
}

/** The process's own zone (what the desktop app used: the machine's local time), DST included. */
export function systemZone(): TimeZone {
  // getTimezoneOffset is minutes WEST of UTC; the rule wants east.
  return { name: 'system', offsetMinutesAt: (utcMs) => -new Date(utcMs).getTimezoneOffset() };
}

/** An IANA zone (`Europe/Berlin`) through Intl; throws a RangeError naming the zone if Intl does not know it. */
export function ianaZone(timeZone: string): TimeZone {
  const format = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
  });
  return {
    name: timeZone,
    offsetMinutesAt(utcMs) {
      const parts: Record<string, number> = {};
      for (const p of format.formatToParts(new Date(utcMs))) {
        if (p.type !== 'literal') parts[p.type] = Number(p.value);
      }
      const asUtc = Date.UTC(
        parts.year ?? 1970,
        (parts.month ?? 1) - 1,
        parts.day ?? 1,
        parts.hour ?? 0,
        parts.minute ?? 0,
        parts.second ?? 0,
      );
      const floored = utcMs - (((utcMs % 1000) + 1000) % 1000);
      return Math.round((asUtc - floored) / MINUTE_MS);
    },
  };
}

/** The local wall-clock fields of instant `utcMs` in `zone`. */
export function toLocal(zone: TimeZone, utcMs: number): LocalTime {
  const d = new Date(utcMs + zone.offsetMinutesAt(utcMs) * MINUTE_MS);
  return {
    year: d.getUTCFullYear(),
    month: d.getUTCMonth(),
    day: d.getUTCDate(),
    hour: d.getUTCHours(),
    minute: d.getUTCMinutes(),
    weekday: d.getUTCDay(),
  };
}

/**
 * The single instant (ms) at which the local clock in `zone` reads the given date and time, or null when that
 * local time is skipped or repeated by a zone transition. Day overflow (day 0, day 32) rolls like Date.UTC.
 */
export function fromLocal(
  zone: TimeZone,
  year: number,
  month: number,
  day: number,
  hour: number,
  minute: number,
): number | null {
  const naive = Date.UTC(year, month, day, hour, minute);
  // Every offset that could apply near this wall time; transitions are far more than 14 h apart.
  const offsets = new Set([
    zone.offsetMinutesAt(naive - 14 * HOUR_MS),
    zone.offsetMinutesAt(naive),
    zone.offsetMinutesAt(naive + 14 * HOUR_MS),
  ]);
  const instants = new Set<number>();
  for (const offset of offsets) {
    const candidate = naive - offset * MINUTE_MS;
    if (zone.offsetMinutesAt(candidate) === offset) instants.add(candidate);
  }
  if (instants.size !== 1) return null;
  const [only] = instants;
  return only ?? null;
}
