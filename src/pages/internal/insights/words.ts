import type { Insights } from '../../../insights/index.js';
import { formatShortDate, percent, plural } from '../format.js';

/** The insights page's ways of saying figures, dates and lists in words. */

export type Aspect = Insights['aspects'][number];

const MONTH_YEAR = new Intl.DateTimeFormat('en-US', {
  timeZone: 'UTC',
  month: 'long',
  year: 'numeric',
});
export const monthYear = (date: string) => MONTH_YEAR.format(new Date(`${date}T00:00:00Z`));

/** `Aug 3 – Oct 31, 2026`, or `Aug 3, 2025 – Aug 2, 2026` across years. */
export function dateRange(from: string, to: string): string {
  const end = formatShortDate(to);
  if (from.slice(0, 4) !== to.slice(0, 4)) return `${formatShortDate(from)} – ${end}`;
  return `${formatShortDate(from).replace(/, \d{4}$/, '')} – ${end}`;
}

/** A reply time in words: `18 hours`, `3 days`. */
export function replyTime(hours: number): string {
  return hours < 36
    ? plural(Math.max(1, Math.round(hours)), 'hour')
    : plural(Math.round(hours / 24), 'day');
}

/** The share of a subject's reviews with a complaint (negative or mixed), in per cent. */
export const complaints = (a: Aspect) => percent(a.negative + a.mixed, a.mentions);

/** Names joined in English: `a`, `a and b`, `a, b and c`. */
export function list(items: readonly string[]): string {
  return items.length <= 1
    ? (items[0] ?? '')
    : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]!}`;
}
