import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { checkDatabaseFile, ensureDirectory } from './internal/files.js';
import { runMigrations } from './internal/migrations.js';
import { createSqliteModerationStore } from './moderation-sqlite.js';
import { createSqliteRateStore } from './rates-sqlite.js';
import {
  createStagingTables,
  readBusiness,
  readState,
  runStaged,
} from './internal/sqlite-staged.js';
import { createSqliteTransfer } from './transfer-sqlite.js';
import { createSqliteWebSubStore } from './websub-sqlite.js';
import type { AnalysisStore, Dataset, Store, StoreTransaction } from './types.js';

type Db = Database.Database;

function connect(path: string): Db {
  if (path !== ':memory:') {
    ensureDirectory(dirname(path));
    checkDatabaseFile(path);
  }
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  // Every connection runs off the service's event loop (the store's own thread, the build worker,
  // a command's process), so waiting for another writer's lock blocks no request.
  db.pragma('busy_timeout = 60000');
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
  createStagingTables(writer);
  let staging: Promise<unknown> = Promise.resolve();

  const endedQuery = reader.prepare('SELECT 1 FROM mcp_ended_sessions WHERE session_key = ?');
  return {
    engine: 'sqlite',
    location: path,
    sessions: {
      secret(name, candidate) {
        return serialize(async () => {
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
              .changes +
            writer.prepare('DELETE FROM mcp_subscriptions WHERE expires_at < ?').run(nowMs)
              .changes +
            writer.prepare('DELETE FROM mcp_log_levels WHERE expires_at < ?').run(nowMs).changes,
        );
      },
      subscribe(sessionKey, uri, expiresAtMs) {
        return serialize(async () => {
          writer
            .prepare(
              'INSERT OR REPLACE INTO mcp_subscriptions (session_key, uri, expires_at) VALUES (?, ?, ?)',
            )
            .run(sessionKey, uri, expiresAtMs);
        });
      },
      unsubscribe(sessionKey, uri) {
        return serialize(async () => {
          writer
            .prepare('DELETE FROM mcp_subscriptions WHERE session_key = ? AND uri = ?')
            .run(sessionKey, uri);
        });
      },
      setLogLevel(sessionKey, level, expiresAtMs) {
        return serialize(async () => {
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
    websub: createSqliteWebSubStore(reader, writer, writeSync),
    rates: createSqliteRateStore(writer, writeSync),
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
