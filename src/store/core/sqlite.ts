/**
 * The SQLite store: opening (a file, WAL mode, the migrations) and the parts of the store each
 * capability builds (`sessions/`, `hub/`, `rates/`, `analyses/`, `moderation/`, `source-runs/`,
 * `transfer/`),
 * on one reader and one writer connection; the published data's reads are here.
 */
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { compareKeys } from '../../domain/order.js';
import { createSqliteAnalysisStore } from '../analyses/sqlite.js';
import { forEachSqliteRemoval, readSqliteFeedHead } from '../changes/sqlite.js';
import { createSqliteWebSubStore } from '../hub/sqlite.js';
import { checkDatabaseFile, ensureDirectory } from '../internal/files.js';
import { runMigrations } from '../internal/migrations.js';
import {
  createStagingTables,
  readBusiness,
  readState,
  runStaged,
} from '../internal/sqlite-staged.js';
import { createSqliteModerationStore } from '../moderation/sqlite.js';
import { createSqliteRateStore } from '../rates/sqlite.js';
import { createSqliteSessionStore } from '../sessions/sqlite.js';
import { createSqliteSourceRunStore } from '../source-runs/sqlite.js';
import { createSqliteTransfer } from '../transfer/sqlite.js';
import { createSqliteWriter, LOCK_WAIT_MS, REQUEST_WRITE_WAIT_MS } from './sqlite-writer.js';
import type { Dataset, PublishedReader, Store, StoreTransaction } from './types.js';

type Db = Database.Database;

function connect(path: string, busyTimeoutMs = LOCK_WAIT_MS): Db {
  if (path !== ':memory:') {
    ensureDirectory(dirname(path));
    checkDatabaseFile(path);
  }
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  // Every connection runs off the service's event loop (the store's own thread, the build worker,
  // a command's process), so waiting for another writer's lock blocks no request. The store
  // thread's writer waits without blocking its thread instead (`asyncLockWait`).
  db.pragma(`busy_timeout = ${busyTimeoutMs}`);
  db.pragma('foreign_keys = ON');
  return db;
}

/** Migrates under SQLite's write lock (`BEGIN IMMEDIATE`), which another process waits for. */
function migrate(db: Db): void {
  runMigrations({
    prepare() {
      db.exec(
        'CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)',
      );
    },
    applied: () =>
      new Set(db.prepare('SELECT version FROM schema_migrations').pluck().all() as number[]),
    locked(fn) {
      db.exec('BEGIN IMMEDIATE');
      try {
        fn();
        db.exec('COMMIT');
      } catch (err) {
        db.exec('ROLLBACK');
        throw err;
      }
    },
    apply(migration) {
      db.exec(migration.sqlite);
      db.prepare('INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)').run(
        migration.version,
        new Date().toISOString(),
      );
    },
  });
}

export interface SqliteStoreOptions {
  /**
   * Wait for another process's write lock without blocking the thread: the writer's busy timeout
   * is 0 and `BEGIN IMMEDIATE` is retried on timers, so the reads the thread serves meanwhile
   * (MCP sessions, the data version) never queue behind a write that waits. The service's store
   * thread opens its store so; commands and the build worker wait in SQLite (blocking their own
   * thread only).
   */
  asyncLockWait?: boolean;
  /**
   * With `asyncLockWait`: how long a write made for a request (a rate counter, an MCP session's
   * setting, a WebSub request) may wait for the lock, queue included, before it fails with
   * `storeBusy()` (other writes wait `LOCK_WAIT_MS`).
   */
  requestWaitMs?: number;
}

/** The published data as the build reads it: the data version, the dataset, the counts. */
function publishedReads(
  reader: Db,
): Pick<Store, 'state' | 'readDataset' | 'readPublished' | 'countReviews' | 'countDerivedBefore'> {
  return {
    async state() {
      return readState(reader);
    },
    async readDataset(): Promise<Dataset> {
      // One read transaction, so the state, business and reviews are one consistent snapshot.
      return reader.transaction(() => ({
        state: readState(reader),
        business: readBusiness(reader),
        reviews: reader
          .prepare(
            'SELECT public_json FROM reviews WHERE id NOT IN (SELECT review_id FROM hidden_reviews)',
          )
          .pluck()
          .all() as string[],
      }))();
    },
    async readPublished(into: PublishedReader) {
      reader.transaction(() => {
        const state = readState(reader);
        const business = readBusiness(reader);
        // The sort keys first (SQLite sorts nothing), then each row by rowid in published order.
        const keys = reader
          .prepare(
            `SELECT json_extract(public_json, '$.date'), json_extract(public_json, '$.datePublished'),
                  id, rowid, length(CAST(public_json AS BLOB)),
                  (SELECT seq FROM review_changes WHERE review_id = reviews.id)
           FROM reviews WHERE id NOT IN (SELECT review_id FROM hidden_reviews)`,
          )
          .raw()
          .all() as [string, string, string, number, number, number | null][];
        keys.sort(compareKeys);
        let bytes = 0;
        // Only the rowids and seqs are kept through the read (the keys took 23 MB at 100,000 reviews).
        const rowids = new Float64Array(keys.length);
        const seqs = new Float64Array(keys.length);
        keys.forEach((k, i) => {
          bytes += k[4];
          rowids[i] = k[3];
          seqs[i] = k[5] ?? 0;
        });
        const count = keys.length;
        keys.length = 0;
        into.begin({ state, business, count, bytes, feed: readSqliteFeedHead(reader) });
        const row = reader.prepare('SELECT public_json FROM reviews WHERE rowid = ?').pluck();
        rowids.forEach((rowid, i) => into.review(row.get(rowid) as string, seqs[i]!));
        forEachSqliteRemoval(reader, (r) => into.removal(r));
      })();
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
  };
}

/**
 * Opens (and migrates) the SQLite store at `path`. WAL mode lets the service read while an import
 * in another process writes; each write batch is one `BEGIN IMMEDIATE` transaction on a
 * dedicated connection, so readers never see a half-applied import.
 */
export function openSqliteStore(path: string, options: SqliteStoreOptions = {}): Store {
  const asyncLockWait = options.asyncLockWait === true;
  const writer = connect(path);
  migrate(writer);
  if (asyncLockWait) writer.pragma('busy_timeout = 0');
  const reader = path === ':memory:' ? writer : connect(path);
  const writes = createSqliteWriter(writer, {
    asyncLockWait,
    requestWaitMs: options.requestWaitMs ?? REQUEST_WRITE_WAIT_MS,
  });
  const { write, requestWrite } = writes;
  createStagingTables(writer);
  let staging: Promise<unknown> = Promise.resolve();
  return {
    engine: 'sqlite',
    location: path,
    sessions: createSqliteSessionStore(reader, writer, write, requestWrite),
    ...publishedReads(reader),
    transaction<T>(fn: (tx: StoreTransaction) => Promise<T>): Promise<T> {
      // One staged transaction at a time; its apply step joins the other writes' queue.
      const run = staging.then(() => runStaged(writer, write, fn));
      staging = run.catch(() => undefined);
      return run;
    },
    websub: createSqliteWebSubStore(reader, writer, write, requestWrite),
    rates: createSqliteRateStore(writer, writes.rateWrite),
    analyses: createSqliteAnalysisStore(reader, writer, write),
    moderation: createSqliteModerationStore(reader, writer, write),
    sources: createSqliteSourceRunStore(reader, writer, write),
    transfer: createSqliteTransfer(reader, writer, writes.serialize, () => {
      if (path === ':memory:') return { db: reader, close() {} };
      const db = connect(path);
      return { db, close: () => db.close() };
    }),
    async backup(destination) {
      ensureDirectory(dirname(destination));
      // Pages are copied in steps; other connections keep reading and writing meanwhile.
      await reader.backup(destination);
      // The copy's change feed gets an epoch of its own: once it is restored, the store's
      // numbering starts again from the copy's, so a mirror's cursor from after the backup must
      // be expired (410) rather than skip the changes numbered anew (docs/operations.md).
      const copy = connect(destination);
      try {
        copy.exec('UPDATE data_state SET change_epoch = lower(hex(randomblob(8))) WHERE id = 1');
      } finally {
        copy.close();
      }
    },
    async close() {
      await staging;
      await writes.idle();
      if (reader !== writer) reader.close();
      writer.close();
    },
  };
}
