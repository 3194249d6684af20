/**
 * What both moderation engines share: the rule that decides whether a hide or unhide changes
 * anything, and the rows of `moderation_log` as the engines read them.
 */
import type { ModerationOutcome, ModerationRecord } from './types.js';

/**
 * The outcome of `record` when it changes nothing (`unknown` or `unchanged`), or null when it
 * is to be applied. Only a stored review can be hidden; a hidden one can be shown again even
 * after --prune removed its row (the hide outlives the row).
 */
export function unchangedOutcome(
  record: ModerationRecord,
  now: { stored: boolean; hidden: boolean },
): Exclude<ModerationOutcome, { status: 'changed' }> | null {
  if (!now.stored && !now.hidden) return { status: 'unknown' };
  if (now.hidden === (record.action === 'hide')) return { status: 'unchanged' };
  return null;
}

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
