/**
 * The SQLite side of the change feed: recording the changes of a write, inside its `BEGIN
 * IMMEDIATE` transaction (which holds the store's write lock, so sequence numbers follow the
 * commits), and reading the feed's head and tombstones.
 */
import type Database from 'better-sqlite3';
import type { ChangeEntry, ChangeFeedHead, ReviewRemoval } from './types.js';

type Db = Database.Database;

/**
 * Gives each entry the next sequence number (in the order given) and makes it its review's one
 * row of `review_changes`. Runs inside the write transaction.
 */
export function recordSqliteChanges(db: Db, entries: readonly ChangeEntry[]): void {
  if (entries.length === 0) return;
  const last = db
    .prepare('UPDATE data_state SET change_seq = change_seq + ? WHERE id = 1 RETURNING change_seq')
    .pluck()
    .get(entries.length) as number;
  const put = db.prepare(
    `INSERT INTO review_changes (review_id, seq, removed_at, reason) VALUES (?, ?, ?, ?)
     ON CONFLICT (review_id) DO UPDATE SET
       seq = excluded.seq, removed_at = excluded.removed_at, reason = excluded.reason`,
  );
  let seq = last - entries.length;
  for (const e of entries) put.run(e.id, ++seq, e.removedAt, e.reason);
}

/**
 * The changes a staged import is about to apply (before it does): the staged records that are
 * new or whose public record differs from the stored one, then the stored reviews it deletes;
 * hidden reviews are left out (they are not published, and their removal is in the feed).
 */
export function stagedSqliteChanges(db: Db, removedAt: string): ChangeEntry[] {
  const upserts = db
    .prepare(
      `SELECT s.id FROM temp.staged_reviews s
       LEFT JOIN main.reviews r ON r.source = s.source AND r.source_review_id = s.source_review_id
       WHERE (r.id IS NULL OR r.public_json <> s.public_json)
         AND s.id NOT IN (SELECT review_id FROM main.hidden_reviews)
       ORDER BY s.id`,
    )
    .pluck()
    .all() as string[];
  const removals = db
    .prepare(
      `SELECT d.id FROM temp.staged_deletes d JOIN main.reviews r ON r.id = d.id
       WHERE d.id NOT IN (SELECT review_id FROM main.hidden_reviews)
       ORDER BY d.id`,
    )
    .pluck()
    .all() as string[];
  return [
    ...upserts.map((id) => ({ id, removedAt: null, reason: null })),
    ...removals.map((id) => ({ id, removedAt, reason: 'deleted' as const })),
  ];
}

/** The feed's epoch and last sequence number. */
export function readSqliteFeedHead(db: Db): ChangeFeedHead {
  const row = db.prepare('SELECT change_epoch, change_seq FROM data_state WHERE id = 1').get() as {
    change_epoch: string;
    change_seq: number;
  };
  return { epoch: row.change_epoch, lastSeq: row.change_seq };
}

/** The feed's tombstones, in sequence order. */
export function forEachSqliteRemoval(db: Db, fn: (removal: ReviewRemoval) => void): void {
  const rows = db
    .prepare(
      `SELECT review_id AS id, seq, removed_at AS removedAt, reason FROM review_changes
       WHERE removed_at IS NOT NULL ORDER BY seq`,
    )
    .iterate() as IterableIterator<ReviewRemoval>;
  for (const r of rows) fn(r);
}
