import type { Business } from '../../domain/business.js';
import { recordPostgresChanges, type PendingChanges } from '../changes/postgres.js';
import { CONCURRENT_CHANGE, concurrentChange } from '../errors.js';
import { isServiceError } from '../../platform/errors.js';
import {
  reviewKey,
  type DataState,
  type ReviewKey,
  type StoreTransaction,
  type StoredReview,
} from '../core/types.js';
import { isConflict } from './postgres-connection.js';
import type { PgDb, Query } from './postgres-db.js';
import { forEachPage, REVIEW_COLUMNS, toStored, type ReviewRow } from './review-row.js';

/**
 * The channel of change notifications: every transaction that bumps the data version (an
 * import's `bumpVersion`, a moderation decision) runs `NOTIFY dealer_reviews_changed, '<version>'`
 * in the transaction, which PostgreSQL delivers to every listener at commit (never for a
 * rollback). `watch` listens on it.
 */
export const CHANGE_CHANNEL = 'dealer_reviews_changed';

const R_COLUMNS =
  'r.id, r.source, r.source_review_id, r.source_hash, r.source_record, r.public_json, r.ingested_at, r.derived_version';

/** Rows per statement of a multi-row write. */
const CHUNK = 1_000;

export async function readState(query: Query): Promise<DataState> {
  const { rows } = await query<{ version: number; changed_at: string }>(
    'SELECT version, changed_at FROM data_state WHERE id = 1',
  );
  return { version: rows[0]!.version, changedAt: rows[0]!.changed_at };
}

export async function readBusiness(query: Query): Promise<Business | null> {
  const { rows } = await query<{ record: string }>('SELECT record FROM business WHERE id = 1');
  return rows[0] ? (JSON.parse(rows[0].record) as Business) : null;
}

/**
 * Moves the data version forward (once per transaction: `current` is the version this
 * transaction already set, if any) and announces it on `CHANGE_CHANNEL` at commit.
 */
export async function bumpVersion(
  query: Query,
  changedAt: string,
  current: DataState | null,
): Promise<DataState> {
  const { rows } = await query<{ version: number; changed_at: string }>(
    `UPDATE data_state SET version = version + $2, changed_at = $1 WHERE id = 1
     RETURNING version, changed_at`,
    [changedAt, current ? 0 : 1],
  );
  const state = { version: rows[0]!.version, changedAt: rows[0]!.changed_at };
  await query('SELECT pg_notify($1, $2)', [CHANGE_CHANNEL, String(state.version)]);
  return state;
}

function chunks<T>(items: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += CHUNK) out.push(items.slice(i, i + CHUNK));
  return out;
}

/**
 * Writes the rows (the last write of a key wins, as in SQLite); returns the ids whose public
 * record is new or differs from the stored one (what the change feed records).
 */
async function upsert(query: Query, rows: readonly StoredReview[]): Promise<string[]> {
  // One statement may not write a row twice.
  const latest = new Map(rows.map((r) => [reviewKey(r.source, r.sourceReviewId), r]));
  const changed: string[] = [];
  for (const part of chunks([...latest.values()])) {
    // Every part of the statement sees the rows as they were before it (one snapshot).
    const { rows: written } = await query<{ id: string }>(
      `WITH input AS (
         SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[],
                              $6::text[], $7::timestamptz[], $8::integer[])
           AS t(${REVIEW_COLUMNS})
       ), old AS (
         SELECT r.source, r.source_review_id, r.public_json FROM reviews r
         JOIN input i ON i.source = r.source AND i.source_review_id = r.source_review_id
       ), up AS (
         INSERT INTO reviews (${REVIEW_COLUMNS}) SELECT * FROM input
         ON CONFLICT (source, source_review_id) DO UPDATE SET
           source_hash = excluded.source_hash,
           source_record = excluded.source_record,
           public_json = excluded.public_json,
           derived_version = excluded.derived_version
         RETURNING id, source, source_review_id, public_json
       )
       SELECT up.id FROM up LEFT JOIN old
         ON old.source = up.source AND old.source_review_id = up.source_review_id
       WHERE old.public_json IS DISTINCT FROM up.public_json`,
      [
        part.map((r) => r.id),
        part.map((r) => r.source),
        part.map((r) => r.sourceReviewId),
        part.map((r) => r.sourceHash),
        part.map((r) => JSON.stringify(r.sourceRecord)),
        part.map((r) => r.publicJson),
        part.map((r) => r.ingestedAt),
        part.map((r) => r.derivedVersion),
      ],
    );
    for (const r of written) changed.push(r.id);
  }
  return changed;
}

/** Deletes the reviews of `sources` not in `keep`; returns their ids. */
async function prune(
  query: Query,
  sources: readonly string[],
  keep: ReadonlySet<string>,
): Promise<string[]> {
  if (sources.length === 0) return [];
  const kept = [...keep].map((key) => key.split('\u0000'));
  const { rows } = await query<{ id: string }>(
    `DELETE FROM reviews r WHERE r.source = ANY($1::text[])
       AND NOT EXISTS (SELECT 1 FROM unnest($2::text[], $3::text[]) k(source, source_review_id)
                       WHERE k.source = r.source AND k.source_review_id = r.source_review_id)
     RETURNING r.id`,
    [sources, kept.map((k) => k[0]), kept.map((k) => k[1] ?? '')],
  );
  return rows.map((r) => r.id);
}

/** The operations of one transaction on `query` (its connection), and what it wrote. */
function transactionOn(query: Query) {
  const written = {
    any: false,
    state: null as DataState | null,
    /** What the change feed records at the end (`recordPostgresChanges`). */
    changes: new Map() as PendingChanges,
  };
  const tx: StoreTransaction = {
    getBusiness: () => readBusiness(query),
    async putBusiness(business) {
      written.any = true;
      await query(
        `INSERT INTO business (id, record, updated_at) VALUES (1, $1, now())
         ON CONFLICT (id) DO UPDATE SET record = excluded.record, updated_at = excluded.updated_at`,
        [JSON.stringify(business)],
      );
    },
    async getReviews(keys: readonly ReviewKey[]) {
      const out = new Map<string, StoredReview>();
      if (keys.length === 0) return out;
      const { rows } = await query<ReviewRow>(
        `SELECT ${R_COLUMNS} FROM reviews r
         JOIN unnest($1::text[], $2::text[]) k(source, source_review_id)
           ON k.source = r.source AND k.source_review_id = r.source_review_id`,
        [keys.map((k) => k.source), keys.map((k) => k.sourceReviewId)],
      );
      for (const row of rows) out.set(reviewKey(row.source, row.source_review_id), toStored(row));
      return out;
    },
    forEachReview(pageSize, fn, filter = {}) {
      const page = async (after: string, before: number) => {
        const { rows } = await query<ReviewRow>(
          `SELECT ${REVIEW_COLUMNS} FROM reviews WHERE id > $1 AND derived_version < $2::bigint
           ORDER BY id LIMIT $3`,
          [after, before, pageSize],
        );
        return rows;
      };
      return forEachPage(page, fn, filter);
    },
    async upsertReviews(rows) {
      if (rows.length === 0) return;
      written.any = true;
      for (const id of await upsert(query, rows)) written.changes.set(id, 'upsert');
    },
    async pruneReviews(sources, keep) {
      const removed = await prune(query, sources, keep);
      if (removed.length > 0) written.any = true;
      for (const id of removed) written.changes.set(id, 'deleted');
      return removed.length;
    },
    async bumpVersion(changedAt) {
      written.any = true;
      written.state = await bumpVersion(query, changedAt, written.state);
      return written.state;
    },
  };
  return { tx, written };
}

/**
 * A write transaction on PostgreSQL: one REPEATABLE READ transaction on one pooled connection,
 * writing the tables directly. Readers keep reading the last committed version meanwhile
 * (MVCC: no reader waits for it, and the hub's tables are never locked by it), and see all of it
 * at commit. The snapshot is taken at its start; when another writer committed a change to the
 * reviews or the data version since then, PostgreSQL refuses this one's conflicting write (or,
 * for a transaction that wrote but did not bump the version, the final check of the version row)
 * with a serialization failure: everything is rolled back and `ConcurrentChangeError` thrown,
 * as the staged SQLite transaction does. A writer that has not committed yet makes it wait
 * instead, and whichever commits first wins.
 */
export async function runPostgresTransaction<T>(
  db: PgDb,
  fn: (tx: StoreTransaction) => Promise<T>,
): Promise<T> {
  let conflict = false;
  const watched =
    (query: Query): Query =>
    async (text, values) => {
      try {
        return await query(text, values);
      } catch (err) {
        if (!isConflict(err)) throw err;
        conflict = true;
        throw concurrentChange({ cause: err });
      }
    };
  try {
    return await db.transaction(
      async (raw) => {
        const query = watched(raw);
        await readState(query); // takes the snapshot
        const { tx, written } = transactionOn(query);
        const result = await fn(tx);
        if (written.any && !written.state) {
          await query('SELECT version FROM data_state WHERE id = 1 FOR UPDATE');
        }
        // Last, under the data version row's lock: sequence numbers in commit order.
        const at = written.state?.changedAt ?? new Date().toISOString();
        await recordPostgresChanges(query, written.changes, at);
        return result;
      },
      { isolation: 'REPEATABLE READ' },
    );
  } catch (err) {
    // Whatever `fn` made of the refused statement, nothing was written.
    if (conflict || isConflict(err)) {
      throw isServiceError(err, CONCURRENT_CHANGE) ? err : concurrentChange({ cause: err });
    }
    throw err;
  }
}
