/**
 * The change feed of the published reviews: one entry per review id that was ever published, at
 * the sequence number of its latest change (an upsert of the published record, or a removal).
 * Sequence numbers are assigned in commit order (each write takes them while it holds the lock
 * that serializes writers), so a reader never sees change `n + 1` committed while `n` is still in
 * flight; older changes of a review are compacted into its newest, so a mirror that applies the
 * entries in order converges, and no position in the feed ever expires.
 */

/** Why a published review left publication: `deleted` (no longer in its source), `hidden` (an operator's `remove`). */
export type RemovalReason = 'deleted' | 'hidden';

/** A published review's removal, as the feed keeps it (a tombstone). */
export interface ReviewRemoval {
  seq: number;
  /** The public id of the review. */
  id: string;
  /** RFC 3339 time of the removal's commit. */
  removedAt: string;
  reason: RemovalReason;
}

/** Where a store's change feed stands: its epoch and the last sequence number it assigned. */
export interface ChangeFeedHead {
  /**
   * Random, made once per store (kept by `migrate-store` and backups): positions of another
   * store's feed are not positions of this one.
   */
  epoch: string;
  lastSeq: number;
}

/** One change a write records: an upsert (`removedAt` null) or a removal. */
export interface ChangeEntry {
  id: string;
  removedAt: string | null;
  reason: RemovalReason | null;
}
