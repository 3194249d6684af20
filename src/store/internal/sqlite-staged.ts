import type Database from 'better-sqlite3';
import type { Business } from '../../domain/business.js';
import { recordSqliteChanges, stagedSqliteChanges } from '../changes/sqlite.js';
import { concurrentChange } from '../errors.js';
import {
  reviewKey,
  type DataState,
  type ReviewKey,
  type StoreTransaction,
  type StoredReview,
} from '../core/types.js';

import { forEachPage, REVIEW_COLUMNS, toStored, type ReviewRow } from './review-row.js';

type Db = Database.Database;

export function readState(db: Db): DataState {
  const row = db.prepare('SELECT version, changed_at FROM data_state WHERE id = 1').get() as {
    version: number;
    changed_at: string;
  };
  return { version: row.version, changedAt: row.changed_at };
}

export function readBusiness(db: Db): Business | null {
  const row = db.prepare('SELECT record FROM business WHERE id = 1').get() as
    { record: string } | undefined;
  return row ? (JSON.parse(row.record) as Business) : null;
}

/**
 * Creates the connection's temporary staging tables (once per connection). TEMP tables live in
 * the connection's own temporary database, so writing to them takes no lock on the store.
 */
export function createStagingTables(db: Db): void {
  db.pragma('temp_store = FILE');
  db.exec(`
    CREATE TEMP TABLE IF NOT EXISTS staged_reviews (
      id TEXT NOT NULL, source TEXT NOT NULL, source_review_id TEXT NOT NULL,
      source_hash TEXT NOT NULL, source_record TEXT NOT NULL, public_json TEXT NOT NULL,
      ingested_at TEXT NOT NULL, derived_version INTEGER NOT NULL,
      PRIMARY KEY (source, source_review_id)
    );
    CREATE TEMP TABLE IF NOT EXISTS staged_deletes (id TEXT PRIMARY KEY);
  `);
}

/** Runs `fn` in one `BEGIN IMMEDIATE` write transaction, after the writes queued before. */
export type WriteRunner = <T>(fn: () => T) => Promise<T>;

/** What a staged transaction holds besides its staged rows, until it is applied. */
interface Staging {
  /** The data version the transaction started from. */
  readonly base: DataState;
  business: Business | null;
  bumpedAt: string | null;
  /** Anything to apply at the end. */
  staged: boolean;
}

/** The transaction's reads: its own staged writes first, then the committed data. */
function stagedReads(
  db: Db,
  staging: Staging,
): Pick<StoreTransaction, 'getBusiness' | 'getReviews' | 'forEachReview'> {
  const getStaged = db.prepare(
    `SELECT ${REVIEW_COLUMNS} FROM temp.staged_reviews WHERE source = ? AND source_review_id = ?`,
  );
  const getStored = db.prepare(
    `SELECT ${REVIEW_COLUMNS} FROM main.reviews WHERE source = ? AND source_review_id = ?`,
  );
  return {
    async getBusiness() {
      return staging.business ?? readBusiness(db);
    },
    async getReviews(keys: readonly ReviewKey[]) {
      const out = new Map<string, StoredReview>();
      for (const k of keys) {
        const row = (getStaged.get(k.source, k.sourceReviewId) ??
          getStored.get(k.source, k.sourceReviewId)) as ReviewRow | undefined;
        if (row) out.set(reviewKey(row.source, row.source_review_id), toStored(row));
      }
      return out;
    },
    forEachReview(pageSize, fn, filter = {}) {
      // The committed reviews: what this transaction stages meanwhile does not move the pages.
      const page = db.prepare(
        `SELECT ${REVIEW_COLUMNS} FROM main.reviews WHERE id > ? AND derived_version < ? ORDER BY id LIMIT ?`,
      );
      return forEachPage(
        (after, before) => page.all(after, before, pageSize) as ReviewRow[],
        fn,
        filter,
      );
    },
  };
}

/** The transaction's writes, to the connection's temporary tables and `staging`. */
function stagedWrites(
  db: Db,
  staging: Staging,
): Pick<StoreTransaction, 'putBusiness' | 'upsertReviews' | 'pruneReviews' | 'bumpVersion'> {
  const stage = db.prepare(
    `INSERT OR REPLACE INTO temp.staged_reviews (${REVIEW_COLUMNS})
     VALUES (@id, @source, @sourceReviewId, @sourceHash, @sourceRecord, @publicJson, @ingestedAt, @derivedVersion)`,
  );
  return {
    async putBusiness(next) {
      staging.business = next;
      staging.staged = true;
    },
    async upsertReviews(rows) {
      if (rows.length === 0) return;
      staging.staged = true;
      const undelete = db.prepare('DELETE FROM temp.staged_deletes WHERE id = ?');
      db.transaction(() => {
        for (const r of rows) {
          stage.run({ ...r, sourceRecord: JSON.stringify(r.sourceRecord) });
          undelete.run(r.id);
        }
      })();
    },
    async pruneReviews(sources, keep) {
      // The source's reviews as this transaction sees them: the committed ones and its own.
      const select = db.prepare(
        `SELECT id, source, source_review_id FROM main.reviews WHERE source = @source
         UNION SELECT id, source, source_review_id FROM temp.staged_reviews WHERE source = @source`,
      );
      const mark = db.prepare('INSERT OR IGNORE INTO temp.staged_deletes (id) VALUES (?)');
      const unstage = db.prepare('DELETE FROM temp.staged_reviews WHERE id = ?');
      let removed = 0;
      db.transaction(() => {
        for (const source of sources) {
          for (const row of select.all({ source }) as ReviewRow[]) {
            if (!keep.has(reviewKey(row.source, row.source_review_id))) {
              unstage.run(row.id);
              mark.run(row.id);
              removed++;
            }
          }
        }
      })();
      if (removed > 0) staging.staged = true;
      return removed;
    },
    async bumpVersion(changedAt) {
      staging.bumpedAt = changedAt;
      staging.staged = true;
      return { version: staging.base.version + 1, changedAt };
    },
  };
}

/**
 * A staged transaction: `fn` reads the committed data and its own staged writes, while the writes
 * go to the connection's temporary tables, holding no lock on the store (an import of 100,000
 * reviews reads, derives and stages for seconds while the service keeps writing its own tables).
 * At the end, everything staged is applied in one short write transaction, which first checks that
 * the data version is still the one the transaction started from: when another writer committed
 * a change meanwhile, nothing is written and `ConcurrentChangeError` is thrown. Either everything
 * the transaction wrote commits, or nothing does.
 */
export async function runStaged<T>(
  db: Db,
  write: WriteRunner,
  fn: (tx: StoreTransaction) => Promise<T>,
): Promise<T> {
  const staging: Staging = { base: readState(db), business: null, bumpedAt: null, staged: false };
  const clear = (): void => {
    db.exec('DELETE FROM temp.staged_reviews; DELETE FROM temp.staged_deletes;');
  };
  clear();
  const tx: StoreTransaction = { ...stagedReads(db, staging), ...stagedWrites(db, staging) };
  try {
    const result = await fn(tx);
    if (staging.staged) {
      await write(() => apply(db, staging.base, staging.business, staging.bumpedAt));
    }
    return result;
  } finally {
    clear();
  }
}

/** Applies what a transaction staged, in the write transaction `write` opened. */
function apply(db: Db, base: DataState, business: Business | null, bumpedAt: string | null): void {
  if (readState(db).version !== base.version) throw concurrentChange();
  // What the feed records, compared with the stored rows before they are overwritten.
  const changes = stagedSqliteChanges(db, bumpedAt ?? new Date().toISOString());
  if (business) {
    db.prepare(
      `INSERT INTO business (id, record, updated_at) VALUES (1, ?, ?)
       ON CONFLICT (id) DO UPDATE SET record = excluded.record, updated_at = excluded.updated_at`,
    ).run(JSON.stringify(business), new Date().toISOString());
  }
  // `WHERE true` tells SQLite's parser that ON CONFLICT belongs to the upsert, not to a join.
  db.exec(`
    INSERT INTO main.reviews (${REVIEW_COLUMNS})
    SELECT ${REVIEW_COLUMNS} FROM temp.staged_reviews WHERE true
    ON CONFLICT (source, source_review_id) DO UPDATE SET
      source_hash = excluded.source_hash,
      source_record = excluded.source_record,
      public_json = excluded.public_json,
      derived_version = excluded.derived_version;
    DELETE FROM main.reviews WHERE id IN (SELECT id FROM temp.staged_deletes);
  `);
  recordSqliteChanges(db, changes);
  if (bumpedAt !== null) {
    db.prepare('UPDATE data_state SET version = version + 1, changed_at = ? WHERE id = 1').run(
      bumpedAt,
    );
  }
}
