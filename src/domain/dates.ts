/**
 * Calendar-date helpers. A review's `date` is the business-local calendar date of its
 * `datePublished` instant; every date filter compares `YYYY-MM-DD` strings, which sort
 * lexicographically in calendar order.
 */

const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** True when `value` is a real calendar date written as `YYYY-MM-DD` (2024-02-30 is not). */
export function isCalendarDate(value: string): boolean {
  const m = DATE_RE.exec(value);
  if (!m) return false;
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  if (year < 1 || month < 1 || month > 12 || day < 1) return false;
  return day <= daysInMonth(year, month);
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

const RFC3339_RE =
  /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?([Zz]|[+-]\d{2}:\d{2})$/;

/**
 * Parses an RFC 3339 timestamp (with offset) and returns it normalised to UTC with millisecond
 * precision (`2024-05-01T14:03:00.000Z`), or `null` when the text is not a valid instant.
 */
export function normalizeInstant(value: string): string | null {
  const m = RFC3339_RE.exec(value);
  if (!m) return null;
  if (!isCalendarDate(`${m[1]}-${m[2]}-${m[3]}`)) return null;
  if (Number(m[4]) > 23 || Number(m[5]) > 59 || Number(m[6]) > 60) return null;
  const ms = Date.parse(value.replace(' ', 'T'));
  if (!Number.isFinite(ms)) return null;
  return new Date(ms).toISOString();
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** True when `timeZone` is an IANA time zone name this runtime knows. */
export function isTimeZone(timeZone: string): boolean {
  try {
    formatterFor(timeZone);
    return true;
  } catch {
    return false;
  }
}

/**
 * The time zone local dates are taken in while no business profile has been imported yet (the
 * import derives `date` in it; the pages show edit dates in it).
 */
export const FALLBACK_TIME_ZONE = 'UTC';

/** The calendar date (`YYYY-MM-DD`) of a UTC instant in the given IANA time zone. */
export function localDate(instant: string, timeZone: string): string {
  const parts = formatterFor(timeZone).formatToParts(new Date(instant));
  const get = (type: string): string => parts.find((p) => p.type === type)?.value ?? '';
  return `${get('year').padStart(4, '0')}-${get('month')}-${get('day')}`;
}

/**
 * `Date.UTC` for every year: `Date.UTC` reads the years 0 to 99 as 1900 to 1999, so 0099-06-01
 * would become 1999-06-01.
 */
function utcMs(y: number, mo: number, d: number, h = 0, mi = 0, s = 0): number {
  const t = new Date(0);
  t.setUTCFullYear(y, mo, d);
  t.setUTCHours(h, mi, s, 0);
  return t.getTime();
}

/** The offset in minutes of `timeZone` from UTC at the given instant (UTC+2 gives 120). */
function zoneOffsetMinutes(epochMs: number, timeZone: string): number {
  const f = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
  });
  const p = Object.fromEntries(f.formatToParts(new Date(epochMs)).map((x) => [x.type, x.value]));
  const asUtc = utcMs(
    Number(p.year),
    Number(p.month) - 1,
    Number(p.day),
    Number(p.hour),
    Number(p.minute),
    Number(p.second),
  );
  return Math.round((asUtc - Math.floor(epochMs / 1000) * 1000) / 60_000);
}

/**
 * Interprets a local wall-clock time without offset (`2024-05-01T09:30:00` or `2024-05-01`)
 * in `timeZone` and returns the UTC instant, or `null` when the text is not a valid local time.
 */
export function localToInstant(value: string, timeZone: string): string | null {
  const m = /^(\d{4}-\d{2}-\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?)?$/.exec(value);
  if (!m || !isCalendarDate(m[1]!)) return null;
  const [y, mo, d] = m[1]!.split('-').map(Number) as [number, number, number];
  const h = Number(m[2] ?? 12);
  const mi = Number(m[3] ?? 0);
  const s = Number(m[4] ?? 0);
  if (h > 23 || mi > 59 || s > 59) return null;
  const guess = utcMs(y, mo - 1, d, h, mi, s);
  let offset = zoneOffsetMinutes(guess, timeZone);
  offset = zoneOffsetMinutes(guess - offset * 60_000, timeZone);
  return new Date(guess - offset * 60_000).toISOString();
}

/** The calendar date `days` days after `date` (both `YYYY-MM-DD`; negative `days` go back). */
export function addDays(date: string, days: number): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const t = new Date(0);
  t.setUTCFullYear(y, m - 1, d + days);
  return t.toISOString().slice(0, 10);
}
