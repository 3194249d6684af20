/**
 * The plausible dates of a review: the one rule every import applies to every row's dates.
 */
import { addDays, localDate, localToInstant } from './dates.js';
import { ReviewSource } from './review.js';

/**
 * The earliest calendar date (in the business's time zone) a review may carry: 1 January 1995,
 * the year online customer reviews began (Amazon opened them in July 1995); every platform an
 * export comes from is younger. Older dates are placeholders (1970-01-01, 1900-01-01) or typos.
 */
export const EARLIEST_REVIEW_DATE = '1995-01-01';

/**
 * The dates a review may carry as of one moment: from `EARLIEST_REVIEW_DATE` to tomorrow, both
 * inclusive, as calendar dates in one time zone. Tomorrow rather than today leaves a day for clocks
 * and zones that disagree (a local time read as UTC before a profile sets the zone is at most 14
 * hours off); anything later is a typo or a placeholder such as 9999-12-31.
 */
export interface ReviewDateWindow {
  readonly timeZone: string;
  /** `EARLIEST_REVIEW_DATE` and tomorrow, local `YYYY-MM-DD`, both inclusive. */
  readonly earliest: string;
  readonly latest: string;
  /** The first instant of `earliest` and the first instant after `latest` (RFC 3339, UTC). */
  readonly from: string;
  readonly until: string;
}

/** The window of plausible review dates as of `now` (an instant) in `timeZone` (IANA). */
export function reviewDateWindow(now: string, timeZone: string): ReviewDateWindow {
  const latest = addDays(localDate(now, timeZone), 1);
  const startOf = (day: string): string => localToInstant(`${day}T00:00`, timeZone)!;
  return {
    timeZone,
    earliest: EARLIEST_REVIEW_DATE,
    latest,
    from: startOf(EARLIEST_REVIEW_DATE),
    until: startOf(addDays(latest, 1)),
  };
}

/** Why an instant lies outside the window, or `null` when it lies inside. */
function implausibleDate(instant: string, w: ReviewDateWindow): string | null {
  // Normalised instants (`YYYY-MM-DDTHH:MM:SS.sssZ`) sort as strings in time order.
  const day = (): string => localDate(instant, w.timeZone);
  if (instant < w.from) {
    return `${day()} is before ${w.earliest}, the earliest date a review may carry`;
  }
  if (instant >= w.until) {
    return `${day()} is after tomorrow (${w.latest} in ${w.timeZone}): a review cannot be dated in the future`;
  }
  return null;
}

/**
 * `ReviewSource` with the plausible-dates rule: every date a review carries (`datePublished`,
 * `dateModified`, `ownerResponse.dateModified`, `verification.checkedAt`) must lie in `window`.
 * The one rule for review dates: the import validates every row of every format with it.
 */
export function reviewSourceAsOf(window: ReviewDateWindow) {
  return ReviewSource.superRefine((r, ctx) => {
    const dates: [path: string[], instant: string | null][] = [
      [['datePublished'], r.datePublished],
      [['dateModified'], r.dateModified],
      [['ownerResponse', 'dateModified'], r.ownerResponse?.dateModified ?? null],
      [['verification', 'checkedAt'], r.verification?.checkedAt ?? null],
    ];
    let plausible = true;
    for (const [path, instant] of dates) {
      const problem = instant === null ? null : implausibleDate(instant, window);
      if (problem !== null) {
        plausible = false;
        ctx.addIssue({ code: 'custom', path, message: problem });
      }
    }
    // Edited on a day before it was written: swapped columns or a typo, and which date is right
    // cannot be told. Earlier on the same day (a date without a time is read as noon) is not an
    // error: the review's dateModified is then its datePublished.
    if (plausible && r.dateModified !== null) {
      const edited = localDate(r.dateModified, window.timeZone);
      const written = localDate(r.datePublished, window.timeZone);
      if (edited < written) {
        ctx.addIssue({
          code: 'custom',
          path: ['dateModified'],
          message: `${edited} is before the review's own date ${written}: a review cannot be edited before it is written`,
        });
      }
    }
  });
}
