import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { compareKeys } from '../../domain/order.js';
import { checkDatabaseFile, ensureDirectory } from '../internal/files.js';
import { runMigrations } from '../internal/migrations.js';
import { createSqliteModerationStore } from '../moderation/sqlite.js';
import { createSqliteRateStore } from '../rates/sqlite.js';
import {
  createStagingTables,
  readBusiness,
  readState,
  runStaged,
} from '../internal/sqlite-staged.js';
import { createSqliteTransfer } from '../transfer/sqlite.js';
import type { AnalysisStore } from '../analyses/types.js';
import { createSqliteWebSubStore } from '../hub/sqlite.js';
import { storeBusy } from '../errors.js';
import { type Dataset, type PublishedReader, type Store, type StoreTransaction } from './types.js';

type Db = Database.Database;

/** How long a connection waits for another writer's lock (SQLite's busy timeout). */
export const LOCK_WAIT_MS = 60_000;

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

/** How long a request's write waits for the store's write lock by default. */
export const REQUEST_WRITE_WAIT_MS = 2_000;
/** How long a rate counter's write waits (then the limiter lets the request through). */
const RATE_WRITE_WAIT_MS = 250;

const isBusy = (err: unknown): boolean => {
  const code = (err as { code?: unknown } | null)?.code;
  return code === 'SQLITE_BUSY' || code === 'SQLITE_BUSY_SNAPSHOT';
};

/**
 * Opens (and migrates) the SQLite store at `path`. WAL mode lets the service read while an import
 * in another process writes; each write batch is one `BEGIN IMMEDIATE` transaction on a
 * dedicated connection, so readers never see a half-applied import.
 */
export function openSqliteStore(path: string, options: SqliteStoreOptions = {}): Store {
  const asyncWait = options.asyncLockWait === true;
  const requestWaitMs = options.requestWaitMs ?? REQUEST_WRITE_WAIT_MS;
  const writer = connect(path);
  migrate(writer);
  if (asyncWait) writer.pragma('busy_timeout = 0');
  const reader = path === ':memory:' ? writer : connect(path);
  let queue: Promise<unknown> = Promise.resolve();
  /** Serialises every write on the writer connection, so none lands inside another's transaction. */
  const serialize = <T>(run: () => Promise<T>): Promise<T> => {
    const next = queue.then(run, run);
    queue = next.catch(() => undefined);
    return next;
  };
  /**
   * `BEGIN IMMEDIATE`, retried on timers while another process holds the lock, until `deadline`
   * (or until the caller gave up).
   */
  const begin = async (deadline: number, abandoned: () => boolean): Promise<void> => {
    for (let delay = 1; ; delay = Math.min(delay * 2, 25)) {
      if (abandoned()) throw storeBusy();
      try {
        writer.exec('BEGIN IMMEDIATE');
        return;
      } catch (err) {
        if (!isBusy(err)) throw err;
        if (Date.now() + delay > deadline) throw storeBusy();
      }
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  };
  /** Runs `fn` in one write transaction, waiting at most `waitMs` for the lock (queue included). */
  const writeWithin = <T>(fn: () => T, waitMs: number): Promise<T> => {
    if (!asyncWait) return serialize(async () => writer.transaction(fn).immediate());
    const deadline = Date.now() + waitMs;
    let gaveUp = false;
    const job = serialize(async () => {
      await begin(deadline, () => gaveUp);
      try {
        const result = fn();
        writer.exec('COMMIT');
        return result;
      } catch (err) {
        if (writer.inTransaction) writer.exec('ROLLBACK');
        throw err;
      }
    });
    if (waitMs >= LOCK_WAIT_MS) return job;
    // A request's write: its caller hears of a busy store by its deadline even when the write is
    // still queued behind another that waits; the queued one then gives up without running.
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(
        () => {
          gaveUp = true;
          reject(storeBusy());
        },
        Math.max(0, deadline - Date.now()),
      );
      job.then(
        (value) => {
          clearTimeout(timer);
          resolve(value);
        },
        (err: unknown) => {
          clearTimeout(timer);
          reject(err as Error);
        },
      );
    });
  };
  const writeSync = <T>(fn: () => T): Promise<T> => writeWithin(fn, LOCK_WAIT_MS);
  const requestWrite = <T>(fn: () => T): Promise<T> => writeWithin(fn, requestWaitMs);
  // A rate counter waits less: the limiter lets a request through uncounted rather than hold it.
  const rateWrite = <T>(fn: () => T): Promise<T> =>
    writeWithin(fn, Math.min(requestWaitMs, RATE_WRITE_WAIT_MS));
  createStagingTables(writer);
  let staging: Promise<unknown> = Promise.resolve();

  const endedQuery = reader.prepare('SELECT 1 FROM mcp_ended_sessions WHERE session_key = ?');
  return {
    engine: 'sqlite',
    location: path,
    sessions: {
      secret(name, candidate) {
        return writeSync(() => {
          writer
            .prepare(
              'INSERT OR IGNORE INTO service_secrets (name, value, created_at) VALUES (?, ?, ?)',
            )
            .run(name, candidate, new Date().toISOString());
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
        return requestWrite(() => {
          writer
            .prepare(
              'INSERT OR REPLACE INTO mcp_ended_sessions (session_key, expires_at) VALUES (?, ?)',
            )
            .run(sessionKey, expiresAtMs);
        });
      },
      purgeEnded(nowMs) {
        return writeSync(
          () =>
            writer.prepare('DELETE FROM mcp_ended_sessions WHERE expires_at < ?').run(nowMs)
              .changes +
            writer.prepare('DELETE FROM mcp_subscriptions WHERE expires_at < ?').run(nowMs)
              .changes +
            writer.prepare('DELETE FROM mcp_log_levels WHERE expires_at < ?').run(nowMs).changes,
        );
      },
      subscribe(sessionKey, uri, expiresAtMs) {
        return requestWrite(() => {
          writer
            .prepare(
              'INSERT OR REPLACE INTO mcp_subscriptions (session_key, uri, expires_at) VALUES (?, ?, ?)',
            )
            .run(sessionKey, uri, expiresAtMs);
        });
      },
      unsubscribe(sessionKey, uri) {
        return requestWrite(() => {
          writer
            .prepare('DELETE FROM mcp_subscriptions WHERE session_key = ? AND uri = ?')
            .run(sessionKey, uri);
        });
      },
      setLogLevel(sessionKey, level, expiresAtMs) {
        return requestWrite(() => {
          writer
            .prepare(
              'INSERT OR REPLACE INTO mcp_log_levels (session_key, level, expires_at) VALUES (?, ?, ?)',
            )
            .run(sessionKey, level, expiresAtMs);
        });
      },
      async logLevel(sessionKey, nowMs) {
        const level = reader
          .prepare(
            `SELECT level FROM mcp_log_levels WHERE session_key = ? AND expires_at >= ?
             AND session_key NOT IN (SELECT session_key FROM mcp_ended_sessions)`,
          )
          .pluck()
          .get(sessionKey, nowMs) as string | undefined;
        return level ?? null;
      },
      async subscriptions(sessionKey, nowMs) {
        return reader
          .prepare(
            `SELECT uri FROM mcp_subscriptions WHERE session_key = ? AND expires_at >= ?
             AND session_key NOT IN (SELECT session_key FROM mcp_ended_sessions) ORDER BY uri`,
          )
          .pluck()
          .all(sessionKey, nowMs) as string[];
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
                    id, rowid, length(CAST(public_json AS BLOB))
             FROM reviews WHERE id NOT IN (SELECT review_id FROM hidden_reviews)`,
          )
          .raw()
          .all() as [string, string, string, number, number][];
        keys.sort(compareKeys);
        let bytes = 0;
        // Only the rowids are kept through the read (the keys took 23 MB at 100,000 reviews).
        const rowids = new Float64Array(keys.length);
        keys.forEach((k, i) => {
          bytes += k[4];
          rowids[i] = k[3];
        });
        const count = keys.length;
        keys.length = 0;
        into.begin({ state, business, count, bytes });
        const row = reader.prepare('SELECT public_json FROM reviews WHERE rowid = ?').pluck();
        for (const rowid of rowids) into.review(row.get(rowid) as string);
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
    transaction<T>(fn: (tx: StoreTransaction) => Promise<T>): Promise<T> {
      // One staged transaction at a time; its apply step joins the other writes' queue.
      const run = staging.then(() => runStaged(writer, writeSync, fn));
      staging = run.catch(() => undefined);
      return run;
    },
    websub: createSqliteWebSubStore(reader, writer, writeSync, requestWrite),
    rates: createSqliteRateStore(writer, rateWrite),
    analyses: createAnalysisStore(reader, writer, writeSync),
    moderation: createSqliteModerationStore(reader, writer, writeSync),
    transfer: createSqliteTransfer(reader, writer, serialize, () => {
      if (path === ':memory:') return { db: reader, close() {} };
      const db = connect(path);
      return { db, close: () => db.close() };
    }),
    async backup(destination) {
      ensureDirectory(dirname(destination));
      // Pages are copied in steps; other connections keep reading and writing meanwhile.
      await reader.backup(destination);
    },
    async close() {
      await staging;
      await queue;
      if (reader !== writer) reader.close();
      writer.close();
    },
  };
}
