import type { DataState } from '../core/types.js';

/** One operator decision about a review's publication, as the moderation log keeps it. */
export interface ModerationRecord {
  /** The public id of the review (`id` in every document). */
  reviewId: string;
  /** `hide` takes the review out of publication; `unhide` publishes it again. */
  action: 'hide' | 'unhide';
  /** Why, as the operator wrote it. */
  reason: string | null;
  /** Who decided (the operator's name, or the system user and host). */
  actor: string;
  /** When (RFC 3339); also the time of the data version that publishes it. */
  at: string;
}

/**
 * The outcome of a hide or unhide: `changed` (logged and published as data version `state`),
 * `unchanged` (the review already was so: nothing written) or `unknown` (no stored review has this
 * id, nor, for `unhide`, a hide of it: nothing written).
 */
export type ModerationOutcome =
  { status: 'changed'; state: DataState } | { status: 'unchanged' } | { status: 'unknown' };

/**
 * Reviews an operator took out of publication (`dealer-reviews remove`). A hidden review stays
 * stored and imports keep updating it, but `readDataset` leaves it out until it is shown again.
 * The hide is kept by review id, apart from the stored row, so neither importing the same export
 * again nor `--prune` followed by a later import brings the review back.
 */
export interface ModerationStore {
  /**
   * Hides or shows again the review `record.reviewId`: in one transaction, changes its state,
   * appends `record` to the log and bumps the data version (at `record.at`).
   */
  apply(record: ModerationRecord): Promise<ModerationOutcome>;
  /** The ids of the hidden reviews. */
  hiddenIds(): Promise<Set<string>>;
  /** Every hide and unhide of one review, oldest first. */
  log(reviewId: string): Promise<ModerationRecord[]>;
}
