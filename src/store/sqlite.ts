import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import type { Business } from '../domain/business.js';
import type { ReviewSource } from '../domain/review.js';
import { checkDatabaseFile, ensureDirectory } from './internal/files.js';
import { SQLITE_MIGRATIONS } from './internal/migrations.js';
import { createSqliteWebSubStore } from './websub-sqlite.js';
import {
  reviewKey,
  type AnalysisStore,
  type DataState,
  type Dataset,
  type ReviewKey,
  type Store,
  type StoreTransaction,
  type StoredReview,
} from './types.js';

type Db = Database.Database;

interface ReviewRow {
  id: string;
  source: string;
  source_review_id: string;
  source_hash: string;
  source_record: string;
  public_json: string;
  ingested_at: string;
  derived_version: number;
}

function toStored(row: ReviewRow): StoredReview {
  return {
    id: row.id,
    source: row.source,
    sourceReviewId: row.source_review_id,
    sourceHash: row.source_hash,
    sourceRecord: JSON.parse(row.source_record) as ReviewSource,
    publicJson: row.public_json,
    ingestedAt: row.ingested_at,
    derivedVersion: row.derived_version,
  };
}

function connect(path: string): Db {
  if (path !== ':memory:') {
    ensureDirectory(dirname(path));
    checkDatabaseFile(path);
  }
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 10000');
  db.pragma('foreign_keys = ON');
  return db;
}

function migrate(db: Db): void {
  db.exec(
    'CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)',
  );
  const applied = new Set(
    (db.prepare('SELECT version FROM schema_migrations').all() as { version: number }[]).map(
      (r) => r.version,
    ),
  );
  SQLITE_MIGRATIONS.forEach((sql, i) => {
    const version = i + 1;
    if (applied.has(version)) return;
    db.exec('BEGIN IMMEDIATE');
    try {
      // Another process may have applied it while we waited for the write lock.
      const done = db.prepare('SELECT 1 FROM schema_migrations WHERE version = ?').get(version);
      if (!done) {
        db.exec(sql);
        db.prepare('INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)').run(
          version,
          new Date().toISOString(),
        );
      }
      db.exec('COMMIT');
    } catch (err) {
      db.exec('ROLLBACK');
      throw err;
    }
  });
}

function readState(db: Db): DataState {
  const row = db.prepare('SELECT version, changed_at FROM data_state WHERE id = 1').get() as {
    version: number;
    changed_at: string;
  };
  return { version: row.version, changedAt: row.changed_at };
}

function readBusiness(db: Db): Business | null {
  const row = db.prepare('SELECT record FROM business WHERE id = 1').get() as
    { record: string } | undefined;
  return row ? (JSON.parse(row.record) as Business) : null;
}

function createTransaction(db: Db): StoreTransaction {
  const getOne = db.prepare('SELECT * FROM reviews WHERE source = ? AND source_review_id = ?');
  const upsert = db.prepare(`
    INSERT INTO reviews (id, source, source_review_id, source_hash, source_record, public_json, ingested_at, derived_version)
    VALUES (@id, @source, @sourceReviewId, @sourceHash, @sourceRecord, @publicJson, @ingestedAt, @derivedVersion)
    ON CONFLICT (source, source_review_id) DO UPDATE SET
      source_hash = excluded.source_hash,
      source_record = excluded.source_record,
      public_json = excluded.public_json,
      derived_version = excluded.derived_version`);
  return {
    async getBusiness() {
      return readBusiness(db);
    },
    async putBusiness(business) {
      db.prepare(
        `INSERT INTO business (id, record, updated_at) VALUES (1, ?, ?)
         ON CONFLICT (id) DO UPDATE SET record = excluded.record, updated_at = excluded.updated_at`,
      ).run(JSON.stringify(business), new Date().toISOString());
    },
    async getReviews(keys: readonly ReviewKey[]) {
      const out = new Map<string, StoredReview>();
      for (const k of keys) {
        const row = getOne.get(k.source, k.sourceReviewId) as ReviewRow | undefined;
        if (row) out.set(reviewKey(row.source, row.source_review_id), toStored(row));
      }
      return out;
    },
    async forEachReview(pageSize, fn, filter = {}) {
      const page = db.prepare(
        'SELECT * FROM reviews WHERE id > ? AND derived_version < ? ORDER BY id LIMIT ?',
      );
      const before = filter.derivedBefore ?? Number.MAX_SAFE_INTEGER;
      let after = '';
      for (;;) {
        const rows = page.all(after, before, pageSize) as ReviewRow[];
        if (rows.length === 0) return;
        await fn(rows.map(toStored));
        after = rows[rows.length - 1]!.id;
      }
    },
    async upsertReviews(rows) {
      for (const r of rows) {
        upsert.run({ ...r, sourceRecord: JSON.stringify(r.sourceRecord) });
      }
    },
    async pruneReviews(sources, keep) {
      const select = db.prepare(
        'SELECT id, source, source_review_id FROM reviews WHERE source = ?',
      );
      const del = db.prepare('DELETE FROM reviews WHERE id = ?');
      let removed = 0;
      for (const source of sources) {
        for (const row of select.all(source) as ReviewRow[]) {
          if (!keep.has(reviewKey(row.source, row.source_review_id))) {
            del.run(row.id);
            removed++;
          }
        }
      }
      return removed;
    },
    async bumpVersion(changedAt) {
      db.prepare('UPDATE data_state SET version = version + 1, changed_at = ? WHERE id = 1').run(
        changedAt,
      );
      return readState(db);
    },
  };
}

function createAnalysisStore(
  reader: Db,
  writer: Db,
  writeSync: <T>(fn: () => T) => Promise<T>,
): AnalysisStore {
  const getOne = reader.prepare('SELECT analysis FROM text_analyses WHERE key = ?').pluck();
  const read = reader.transaction((keys: readonly string[]) => {
    const found = new Map<string, string>();
    for (const key of keys) {
      const analysis = getOne.get(key) as string | undefined;
      if (analysis !== undefined) found.set(key, analysis);
    }
    return found;
  });
  const putOne = writer.prepare(
    'INSERT OR REPLACE INTO text_analyses (key, analysis) VALUES (?, ?)',
  );
  const deleteOne = writer.prepare('DELETE FROM text_analyses WHERE key = ?');
  return {
    async get(keys) {
      // One read transaction: the keys are looked up in one consistent snapshot.
      return read(keys);
    },
    put(entries) {
      return writeSync(() => {
        for (const [key, analysis] of entries) putOne.run(key, analysis);
      });
    },
    async count() {
      return reader.prepare('SELECT count(*) FROM text_analyses').pluck().get() as number;
    },
    retain(keep) {
      return writeSync(() => {
        let deleted = 0;
        const keys = writer.prepare('SELECT key FROM text_analyses').pluck().all() as string[];
        for (const key of keys) if (!keep.has(key)) deleted += deleteOne.run(key).changes;
        return deleted;
      });
    },
  };
}

/**
 * Opens (and migrates) the SQLite store at `path`. WAL mode lets the service read while an import
 * in another process writes; each write batch is one `BEGIN IMMEDIATE` transaction on a
 * dedicated connection, so readers never see a half-applied import.
 */
export function openSqliteStore(path: string): Store {
  const writer = connect(path);
  migrate(writer);
  const reader = path === ':memory:' ? writer : connect(path);
  let queue: Promise<unknown> = Promise.resolve();
  /** Serialises every write on the writer connection, so none lands inside another's transaction. */
  const serialize = <T>(run: () => Promise<T>): Promise<T> => {
    const next = queue.then(run, run);
    queue = next.catch(() => undefined);
    return next;
  };
  const writeSync = <T>(fn: () => T): Promise<T> =>
    serialize(async () => writer.transaction(fn).immediate());

  const endedQuery = reader.prepare('SELECT 1 FROM mcp_ended_sessions WHERE session_key = ?');
  return {
    engine: 'sqlite',
    location: path,
    sessions: {
      secret(name, create) {
        return serialize(async () => {
          writer
            .prepare(
              'INSERT OR IGNORE INTO service_secrets (name, value, created_at) VALUES (?, ?, ?)',
            )
            .run(name, create(), new Date().toISOString());
          return writer
            .prepare('SELECT value FROM service_secrets WHERE name = ?')
            .pluck()
            .get(name) as string;
        });
      },
      async isEnded(sessionKey) {
        return endedQuery.get(sessionKey) !== undefined;
      },
      end(sessionKey, expiresAtMs) {
        return serialize(async () => {
          writer
            .prepare(
              'INSERT OR REPLACE INTO mcp_ended_sessions (session_key, expires_at) VALUES (?, ?)',
            )
            .run(sessionKey, expiresAtMs);
        });
      },
      purgeEnded(nowMs) {
        return serialize(
          async () =>
            writer.prepare('DELETE FROM mcp_ended_sessions WHERE expires_at < ?').run(nowMs)
              .changes,
        );
      },
    },
    async state() {
      return readState(reader);
    },
    async readDataset(): Promise<Dataset> {
      // One read transaction, so the state, business and reviews are one consistent snapshot.
      return reader.transaction(() => ({
        state: readState(reader),
        business: readBusiness(reader),
        reviews: reader.prepare('SELECT public_json FROM reviews').pluck().all() as string[],
      }))();
    },
    async countReviews() {
      return reader.prepare('SELECT count(*) FROM reviews').pluck().get() as number;
    },
    async countDerivedBefore(version) {
      return reader
        .prepare('SELECT count(*) FROM reviews WHERE derived_version < ?')
        .pluck()
        .get(version) as number;
    },
    transaction<T>(fn: (tx: StoreTransaction) => Promise<T>): Promise<T> {
      const run = async (): Promise<T> => {
        writer.exec('BEGIN IMMEDIATE');
        try {
          const result = await fn(createTransaction(writer));
          writer.exec('COMMIT');
          return result;
        } catch (err) {
          if (writer.inTransaction) writer.exec('ROLLBACK');
          throw err;
        }
      };
      return serialize(run);
    },
    websub: createSqliteWebSubStore(reader, writer, writeSync),
    analyses: createAnalysisStore(reader, writer, writeSync),
    async close() {
      await queue;
      if (reader !== writer) reader.close();
      writer.close();
    },
  };
}
