/**
 * The PostgreSQL side of the change feed: recording the changes of a write transaction once it
 * holds the data version row's lock (`UPDATE data_state ... RETURNING`): a writer that commits
 * later takes that lock after this one committed, so sequence numbers follow the commits and a
 * reader never sees `n + 1` committed while `n` is in flight. And reading the feed's head and
 * tombstones in a read's snapshot.
 */
import type { Query } from '../internal/postgres-db.js';
import type { ChangeEntry, ChangeFeedHead, ReviewRemoval } from './types.js';

/**
 * What a PostgreSQL transaction changed in the published reviews, by public id (the last change
 * of an id wins); recorded at its end by `recordPostgresChanges`.
 */
export type PendingChanges = Map<string, 'upsert' | 'deleted'>;

/**
 * Records `pending` in the feed, inside the transaction: hidden reviews are left out, each other
 * id gets the next sequence number (upserts first, then removals, each by id) under the data
 * version row's lock.
 */
export async function recordPostgresChanges(
  query: Query,
  pending: PendingChanges,
  removedAt: string,
): Promise<void> {
  if (pending.size === 0) return;
  const { rows } = await query<{ review_id: string }>(
    'SELECT review_id FROM hidden_reviews WHERE review_id = ANY($1::text[])',
    [[...pending.keys()]],
  );
  const hidden = new Set(rows.map((r) => r.review_id));
  const byId = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
  const ids = [...pending.keys()].filter((id) => !hidden.has(id)).sort(byId);
  const entries: ChangeEntry[] = [
    ...ids.filter((id) => pending.get(id) === 'upsert').map((id) => upsertEntry(id)),
    ...ids
      .filter((id) => pending.get(id) === 'deleted')
      .map((id) => ({ id, removedAt, reason: 'deleted' as const })),
  ];
  await writePostgresChanges(query, entries);
}

const upsertEntry = (id: string): ChangeEntry => ({ id, removedAt: null, reason: null });

/**
 * Gives each entry the next sequence number (in the order given) and makes it its review's one
 * row of `review_changes`. The transaction must be allowed to take the data version row's lock.
 */
export async function writePostgresChanges(
  query: Query,
  entries: readonly ChangeEntry[],
): Promise<void> {
  if (entries.length === 0) return;
  const { rows } = await query<{ change_seq: number }>(
    'UPDATE data_state SET change_seq = change_seq + $1 WHERE id = 1 RETURNING change_seq',
    [entries.length],
  );
  const first = Number(rows[0]!.change_seq) - entries.length + 1;
  await query(
    `INSERT INTO review_changes (review_id, seq, removed_at, reason)
     SELECT id, $2::bigint + ord - 1, removed_at, reason
     FROM unnest($1::text[], $3::timestamptz[], $4::text[]) WITH ORDINALITY
       AS e(id, removed_at, reason, ord)
     ON CONFLICT (review_id) DO UPDATE SET
       seq = excluded.seq, removed_at = excluded.removed_at, reason = excluded.reason`,
    [
      entries.map((e) => e.id),
      first,
      entries.map((e) => e.removedAt),
      entries.map((e) => e.reason),
    ],
  );
}

/** The feed's epoch and last sequence number, in the read's snapshot. */
export async function readPostgresFeedHead(query: Query): Promise<ChangeFeedHead> {
  const { rows } = await query<{ change_epoch: string; change_seq: number }>(
    'SELECT change_epoch, change_seq FROM data_state WHERE id = 1',
  );
  return { epoch: rows[0]!.change_epoch, lastSeq: Number(rows[0]!.change_seq) };
}

/** Tombstones read per query. */
const REMOVALS_BATCH = 5_000;

/** The feed's tombstones in sequence order, in the read's snapshot, a batch at a time. */
export async function forEachPostgresRemoval(
  query: Query,
  fn: (removal: ReviewRemoval) => void,
): Promise<void> {
  for (let after = 0; ;) {
    const { rows } = await query<{ id: string; seq: number; removed_at: string; reason: string }>(
      `SELECT review_id AS id, seq, removed_at, reason FROM review_changes
       WHERE removed_at IS NOT NULL AND seq > $1::bigint ORDER BY seq LIMIT ${REMOVALS_BATCH}`,
      [after],
    );
    for (const r of rows) {
      after = Number(r.seq);
      fn({
        id: r.id,
        seq: after,
        removedAt: r.removed_at,
        reason: r.reason as ReviewRemoval['reason'],
      });
    }
    if (rows.length < REMOVALS_BATCH) return;
  }
}
