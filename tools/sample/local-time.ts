/**
 * Local wall-clock time in a US time zone, computed from the US daylight-saving rule (since 2007:
 * from the second Sunday of March at 02:00 to the first Sunday of November at 02:00) instead of
 * the runtime's time-zone database, so output never depends on the ICU version and 1M timestamps
 * stay cheap. Days are counted as days since 1970-01-01 (UTC calendar arithmetic).
 */

const DAY_MS = 86_400_000;

/** A local calendar date and time of day. */
export interface LocalDateTime {
  /** Days since 1970-01-01 of the local calendar date. */
  day: number;
  /** Seconds since local midnight, 0..86399. */
  second: number;
}

/** Days since 1970-01-01 of a `YYYY-MM-DD` date. */
export function dayNumber(isoDate: string): number {
  return Math.floor(Date.parse(`${isoDate}T00:00:00Z`) / DAY_MS);
}

const ISO_DAYS = new Map<number, string>();

/** The `YYYY-MM-DD` text of a day number (cached: the sample only ever uses a few thousand). */
export function isoDay(day: number): string {
  let text = ISO_DAYS.get(day);
  if (text === undefined) {
    text = new Date(day * DAY_MS).toISOString().slice(0, 10);
    ISO_DAYS.set(day, text);
  }
  return text;
}

/** The calendar year of a day number. */
export function yearOf(day: number): number {
  return Number(isoDay(day).slice(0, 4));
}

/** 0 = Sunday .. 6 = Saturday. */
export function weekday(day: number): number {
  return (((day + 4) % 7) + 7) % 7;
}

function nthSunday(year: number, month: number, n: number): number {
  const first = Math.floor(Date.UTC(year, month - 1, 1) / DAY_MS);
  const offset = (7 - weekday(first)) % 7;
  return first + offset + (n - 1) * 7;
}

const DST = new Map<number, readonly [number, number]>();

/** The local days daylight-saving time starts and ends in a year (US rule since 2007). */
function dstDays(year: number): readonly [number, number] {
  let days = DST.get(year);
  if (!days) {
    days = [nthSunday(year, 3, 2), nthSunday(year, 11, 1)];
    DST.set(year, days);
  }
  return days;
}

/** True on the day clocks skip from 02:00 to 03:00 (the second Sunday of March). */
export function isSpringForward(day: number): boolean {
  return day === dstDays(yearOf(day))[0];
}

/** True when daylight-saving time is in force at this local wall-clock time (US rule). */
function isDaylightTime(t: LocalDateTime): boolean {
  const [start, end] = dstDays(yearOf(t.day));
  if (t.day > start && t.day < end) return true;
  if (t.day === start) return t.second >= 2 * 3600;
  if (t.day === end) return t.second < 2 * 3600;
  return false;
}

/** A US time zone as its standard offset from UTC in minutes (Eastern: -300). */
export interface UsZone {
  standardOffsetMinutes: number;
}

/** The UTC offset in minutes of a local time; the skipped spring hour is read as daylight time. */
export function offsetMinutes(zone: UsZone, t: LocalDateTime): number {
  return zone.standardOffsetMinutes + (isDaylightTime(t) ? 60 : 0);
}

const PAD = Array.from({ length: 60 }, (_, i) => String(i).padStart(2, '0'));
const pad = (n: number): string => PAD[n]!;

/**
 * Formats a local time as RFC 3339 with its offset (`2025-03-14T18:22:07-04:00`). A time in the
 * hour skipped by the spring change is moved an hour later, as a clock would show it.
 */
export function formatLocal(zone: UsZone, t: LocalDateTime): string {
  let { day, second } = t;
  if (day === dstDays(yearOf(day))[0] && second >= 2 * 3600 && second < 3 * 3600) second += 3600;
  const off = offsetMinutes(zone, { day, second });
  const sign = off < 0 ? '-' : '+';
  const abs = Math.abs(off);
  day += Math.floor(second / 86_400);
  second %= 86_400;
  const h = Math.floor(second / 3600);
  const m = Math.floor((second % 3600) / 60);
  const s = second % 60;
  return `${isoDay(day)}T${pad(h)}:${pad(m)}:${pad(s)}${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

/** Adds seconds to a local time, carrying into following days. */
export function addSeconds(t: LocalDateTime, seconds: number): LocalDateTime {
  const total = t.second + Math.floor(seconds);
  return { day: t.day + Math.floor(total / 86_400), second: ((total % 86_400) + 86_400) % 86_400 };
}

/** Orders two local times: negative when `a` is earlier. */
export function compareLocal(a: LocalDateTime, b: LocalDateTime): number {
  return a.day - b.day || a.second - b.second;
}
