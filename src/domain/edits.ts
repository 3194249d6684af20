/**
 * What "edited" means for a review, decided once (docs/data-model.md, Edits): every surface that
 * says a review was edited (the feeds' `date_modified` and `updated`, the pages' marker, the
 * pages' JSON-LD) asks `editedAt`, and the import asks `sameAuthoredContent` whether a change
 * without a source modification time is an edit.
 */
import type { Review, ReviewSource } from './review.js';

/**
 * How much later than `datePublished` a review's `dateModified` must be for the review to count
 * as edited: five minutes. Sources stamp an unedited review's modification time at or a few
 * seconds after its creation (Google's `updateTime`, a platform's own write path), and a review
 * corrected within minutes of being written reads as first written, the grace period Stack
 * Exchange and Discourse give (5 minutes) before they show a post as edited.
 */
export const EDIT_GRACE_MS = 5 * 60_000;

/**
 * When the review was last edited (its `dateModified`, an RFC 3339 instant), or `null` when it
 * counts as unedited: its `dateModified` is at most `EDIT_GRACE_MS` after `datePublished`.
 */
export function editedAt(r: Pick<Review, 'datePublished' | 'dateModified'>): string | null {
  return Date.parse(r.dateModified) - Date.parse(r.datePublished) > EDIT_GRACE_MS
    ? r.dateModified
    : null;
}

/**
 * What the reviewer wrote of a source row: the rating, title, text, category ratings,
 * recommendation and the staff they tagged. The business's reply, the verification, the
 * department, the source's translation and links are not the reviewer's, and a change to them is
 * no edit. Fields a stored row of an older version lacks read as `null`.
 */
function authored(s: ReviewSource): unknown[] {
  return [
    s.reviewRating?.ratingValue ?? null,
    s.name ?? null,
    s.reviewBody ?? null,
    s.subRatings ?? null,
    s.recommendsDealer ?? null,
    s.taggedStaff ?? [],
  ];
}

/** Whether two versions of a source row carry the same words and ratings of the reviewer. */
export function sameAuthoredContent(a: ReviewSource, b: ReviewSource): boolean {
  return JSON.stringify(authored(a)) === JSON.stringify(authored(b));
}
