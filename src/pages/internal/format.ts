/** Formatting of figures, dates and labels for the pages (English, as the rest of the service). */
import { dict, type ReadonlyDict } from '../../platform/dict.js';

const DATE = new Intl.DateTimeFormat('en-US', {
  timeZone: 'UTC',
  year: 'numeric',
  month: 'long',
  day: 'numeric',
});
const MONTH = new Intl.DateTimeFormat('en-US', {
  timeZone: 'UTC',
  year: 'numeric',
  month: 'short',
});

const SHORT_DATE = new Intl.DateTimeFormat('en-US', {
  timeZone: 'UTC',
  year: 'numeric',
  month: 'short',
  day: 'numeric',
});

/** A local calendar date `YYYY-MM-DD` in short words (`Oct 31, 2026`). */
export function formatShortDate(date: string): string {
  return SHORT_DATE.format(new Date(`${date}T00:00:00Z`));
}

const MOMENT: Intl.DateTimeFormatOptions = {
  year: 'numeric',
  month: 'long',
  day: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
  timeZoneName: 'short',
};
const MOMENTS = new Map<string, Intl.DateTimeFormat>();

/**
 * An instant as a local date and time in words, with the zone's abbreviation (`November 3, 2026
 * at 2:05 PM CST`). One formatter per time zone, made once. ICU's narrow no-break space before
 * AM/PM is written as a plain space, so the words do not depend on the ICU version.
 */
export function formatMoment(instant: string, timeZone: string): string {
  const format = MOMENTS.get(timeZone) ?? new Intl.DateTimeFormat('en-US', { ...MOMENT, timeZone });
  MOMENTS.set(timeZone, format);
  return format.format(new Date(instant)).replace(/\u202f/g, ' ');
}

/** A local calendar date `YYYY-MM-DD` (already in the business's time zone) in words. */
export function formatDate(date: string): string {
  return DATE.format(new Date(`${date}T00:00:00Z`));
}

/** A month `YYYY-MM` in words (`Jan 2026`). */
export function formatMonth(month: string): string {
  return MONTH.format(new Date(`${month}-01T00:00:00Z`));
}

/** A count with thousands separators. */
export function formatCount(n: number): string {
  return n.toLocaleString('en-US');
}

/** `1 review`, `2 reviews`. */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${formatCount(n)} ${n === 1 ? one : many}`;
}

/** A whole percentage of `part` in `whole` (0 when `whole` is 0). */
export function percent(part: number, whole: number): number {
  return whole === 0 ? 0 : Math.round((part / whole) * 100);
}

/** A rating to one decimal (`4.1`). */
export function formatRating(value: number): string {
  return value.toFixed(1);
}

const SOURCES: ReadonlyDict<string> = dict({
  google: 'Google',
  dealerrater: 'DealerRater',
  yelp: 'Yelp',
  trustpilot: 'Trustpilot',
  facebook: 'Facebook',
  'cars-com': 'Cars.com',
  'first-party': 'our own survey',
  other: 'another site',
});

/** The display name of a review source. */
export function sourceLabel(source: string): string {
  return SOURCES[source] ?? source;
}

/** A slug or role id in words (`service-advisor` → `Service advisor`). */
export function words(id: string): string {
  const text = id.replace(/-/g, ' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** Text cut to at most `max` characters at a word boundary, with an ellipsis when cut. */
export function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  let cut = text.slice(0, max);
  const space = cut.lastIndexOf(' ');
  if (space > max * 0.6) cut = cut.slice(0, space);
  // Never split a surrogate pair.
  if (/[\uD800-\uDBFF]$/.test(cut)) cut = cut.slice(0, -1);
  return `${cut.trimEnd()}…`;
}
