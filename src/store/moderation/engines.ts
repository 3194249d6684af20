/**
 * What both moderation engines share: the rule that decides whether a hide or unhide changes
 * anything, and the rows of `moderation_log` as the engines read them.
 */
import type { ModerationOutcome, ModerationRecord } from './types.js';

/** Whether a review is stored, and whether it is hidden (by an operator, or by a source). */
export interface ReviewState {
  stored: boolean;
  hidden: boolean;
  /** The review source that hid it (it no longer lists it), or null: an operator, or not hidden. */
  hiddenBy: string | null;
}

/**
 * The outcome of `record` when it changes nothing (`unknown` or `unchanged`), or null when it
 * is to be applied. Only a stored review can be hidden; a hidden one can be shown again even
 * after --prune removed its row (the hide outlives the row). An operator's hide of a review a
 * source hid is applied: it becomes the operator's, which no source lifts.
 */
export function unchangedOutcome(
  record: ModerationRecord,
  now: ReviewState,
): Exclude<ModerationOutcome, { status: 'changed' }> | null {
  if (!now.stored && !now.hidden) return { status: 'unknown' };
  if (record.action === 'hide' && now.hiddenBy !== null) return null;
  if (now.hidden === (record.action === 'hide')) return { status: 'unchanged' };
  return null;
}

/**
 * The SQL that hides a review for an operator (`hidden_by` NULL), also one a source hid: the
 * operator's hide replaces the source's. Parameters: the review id, the time.
 */
export const HIDE_FOR_OPERATOR = (p: (n: number) => string): string =>
  `INSERT INTO hidden_reviews (review_id, hidden_at, hidden_by) VALUES (${p(1)}, ${p(2)}, NULL)
   ON CONFLICT (review_id) DO UPDATE SET hidden_by = NULL, hidden_at = excluded.hidden_at`;

/** A row of `moderation_log`, as `SELECT ${LOG_COLUMNS}` reads it. */
export interface LogRow {
  review_id: string;
  action: 'hide' | 'unhide';
  reason: string | null;
  actor: string;
  at: string;
}

export const LOG_COLUMNS = 'review_id, action, reason, actor, at';

export function toRecord(r: LogRow): ModerationRecord {
  return { reviewId: r.review_id, action: r.action, reason: r.reason, actor: r.actor, at: r.at };
}
