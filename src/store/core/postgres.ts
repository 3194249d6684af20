import { clientConfig, createPool, parsePostgresUrl } from '../internal/postgres-connection.js';
import { createPgDb, type PgDb } from '../internal/postgres-db.js';
import { migrateWhenUsed } from '../internal/postgres-migrate.js';
import {
  readBusiness,
  readState,
  runPostgresTransaction,
} from '../internal/postgres-transaction.js';
import { createChangeWatcher, type WatcherTiming } from '../internal/postgres-watch.js';
import { createPostgresModerationStore } from '../moderation/postgres.js';
import { createPostgresRateStore } from '../rates/postgres.js';
import { compareKeys } from '../../domain/order.js';
import type { AnalysisStore } from '../analyses/types.js';
import type { SessionStore } from '../sessions/types.js';
import type { Dataset, PublishedReader, Store } from './types.js';
import { createPostgresTransfer } from '../transfer/postgres.js';
import { createPostgresWebSubStore } from '../hub/postgres.js';

/** Reviews read per query by `readPublished`, in published order. */
const READ_BATCH = 1000;

/** Analyses per statement when writing. */
const CHUNK = 1_000;

function createSessionStore(db: PgDb): SessionStore {
  return {
    async secret(name, candidate) {
      // Two statements: the read sees a secret another instance committed meanwhile.
      await db.query(
        `INSERT INTO service_secrets (name, value, created_at) VALUES ($1, $2, now())
         ON CONFLICT (name) DO NOTHING`,
        [name, candidate],
      );
      const { rows } = await db.query<{ value: string }>(
        'SELECT value FROM service_secrets WHERE name = $1',
        [name],
      );
      return rows[0]!.value;
    },
    async isEnded(sessionKey) {
      const { rowCount } = await db.query(
        'SELECT 1 FROM mcp_ended_sessions WHERE session_key = $1',
        [sessionKey],
      );
      return rowCount !== 0;
    },
    async end(sessionKey, expiresAtMs) {
      await db.query(
        `INSERT INTO mcp_ended_sessions (session_key, expires_at) VALUES ($1, $2)
         ON CONFLICT (session_key) DO UPDATE SET expires_at = excluded.expires_at`,
        [sessionKey, expiresAtMs],
      );
    },
    async purgeEnded(nowMs) {
      let purged = 0;
      for (const table of ['mcp_ended_sessions', 'mcp_subscriptions', 'mcp_log_levels']) {
        const { rowCount } = await db.query(`DELETE FROM ${table} WHERE expires_at < $1`, [nowMs]);
        purged += rowCount ?? 0;
      }
      return purged;
    },
    async subscribe(sessionKey, uri, expiresAtMs) {
      await db.query(
        `INSERT INTO mcp_subscriptions (session_key, uri, expires_at) VALUES ($1, $2, $3)
         ON CONFLICT (session_key, uri) DO UPDATE SET expires_at = excluded.expires_at`,
        [sessionKey, uri, expiresAtMs],
      );
    },
    async unsubscribe(sessionKey, uri) {
      await db.query('DELETE FROM mcp_subscriptions WHERE session_key = $1 AND uri = $2', [
        sessionKey,
        uri,
      ]);
    },
    async subscriptions(sessionKey, nowMs) {
      const { rows } = await db.query<{ uri: string }>(
        `SELECT uri FROM mcp_subscriptions WHERE session_key = $1 AND expires_at >= $2
         AND NOT EXISTS (SELECT 1 FROM mcp_ended_sessions e WHERE e.session_key = $1)
         ORDER BY uri COLLATE "C"`,
        [sessionKey, nowMs],
      );
      return rows.map((r) => r.uri);
    },
    async setLogLevel(sessionKey, level, expiresAtMs) {
      await db.query(
        `INSERT INTO mcp_log_levels (session_key, level, expires_at) VALUES ($1, $2, $3)
         ON CONFLICT (session_key) DO UPDATE SET level = excluded.level, expires_at = excluded.expires_at`,
        [sessionKey, level, expiresAtMs],
      );
    },
    async logLevel(sessionKey, nowMs) {
      const { rows } = await db.query<{ level: string }>(
        `SELECT level FROM mcp_log_levels WHERE session_key = $1 AND expires_at >= $2
         AND NOT EXISTS (SELECT 1 FROM mcp_ended_sessions e WHERE e.session_key = $1)`,
        [sessionKey, nowMs],
      );
      return rows[0]?.level ?? null;
    },
  };
}

function createAnalysisStore(db: PgDb): AnalysisStore {
  return {
    async get(keys) {
      // One statement: the keys are looked up in one consistent snapshot.
      const { rows } = await db.query<{ key: string; analysis: string }>(
        'SELECT key, analysis FROM text_analyses WHERE key = ANY($1::text[])',
        [[...new Set(keys)]],
      );
      return new Map(rows.map((r) => [r.key, r.analysis]));
    },
    async put(entries) {
      // One statement may not write a key twice: the last entry of a key wins.
      const latest = [...new Map(entries).entries()];
      if (latest.length === 0) return;
      await db.transaction(async (query) => {
        for (let i = 0; i < latest.length; i += CHUNK) {
          const part = latest.slice(i, i + CHUNK);
          await query(
            `INSERT INTO text_analyses (key, analysis)
             SELECT * FROM unnest($1::text[], $2::text[])
             ON CONFLICT (key) DO UPDATE SET analysis = excluded.analysis`,
            [part.map((e) => e[0]), part.map((e) => e[1])],
          );
        }
      });
    },
    async count() {
      const { rows } = await db.query<{ n: number }>('SELECT count(*) AS n FROM text_analyses');
      return rows[0]!.n;
    },
    async retain(keep) {
      const { rowCount } = await db.query(
        `DELETE FROM text_analyses t
         WHERE NOT EXISTS (SELECT 1 FROM unnest($1::text[]) k(key) WHERE k.key = t.key)`,
        [[...keep]],
      );
      return rowCount ?? 0;
    },
  };
}

/**
 * Opens the PostgreSQL store named by a `postgres://` (or `postgresql://`) URL: a pool of at most
 * `pool_size` connections (default 10), the schema migrated at the first use (every call waits for
 * it and fails as it did; a failed migration, the server away, runs again at the next call), and `watch` on a connection of its own (with its heartbeat: `timing`,
 * for tests). Every call is asynchronous, so the service uses it as it is, on its event loop.
 * `location` is the URL with its password masked.
 */
export function openPostgresStore(url: string, options: { watch?: WatcherTiming } = {}): Store {
  const target = parsePostgresUrl(url);
  const pool = createPool(target);
  const migration = migrateWhenUsed(pool);
  const db = createPgDb(pool, migration.ready);
  const watcher = createChangeWatcher(
    { ...clientConfig(target), application_name: 'dealer-reviews (watch)' },
    migration.ready,
    options.watch,
  );
  let closed: Promise<void> | null = null;
  return {
    engine: 'postgres',
    location: target.location,
    sessions: createSessionStore(db),
    websub: createPostgresWebSubStore(db),
    rates: createPostgresRateStore(db),
    analyses: createAnalysisStore(db),
    moderation: createPostgresModerationStore(db),
    transfer: createPostgresTransfer(db),
    state: () => readState(db.query),
    readDataset: () =>
      // One snapshot for the state, the business and the reviews.
      db.transaction(
        async (query): Promise<Dataset> => ({
          state: await readState(query),
          business: await readBusiness(query),
          reviews: (
            await query<{ public_json: string }>(
              `SELECT public_json FROM reviews r
               WHERE NOT EXISTS (SELECT 1 FROM hidden_reviews h WHERE h.review_id = r.id)`,
            )
          ).rows.map((r) => r.public_json),
        }),
        { isolation: 'REPEATABLE READ', readOnly: true },
      ),
    readPublished: (into: PublishedReader) =>
      db.transaction(
        async (query) => {
          const state = await readState(query);
          const business = await readBusiness(query);
          // The sort keys first, ordered here (as every list is, whatever the server's
          // collation), then the rows a batch at a time in that order.
          const keys = (
            await query<{ d: string; p: string; id: string; n: number }>(
              `SELECT j->>'date' AS d, j->>'datePublished' AS p, r.id, octet_length(r.public_json) AS n
               FROM reviews r CROSS JOIN LATERAL (SELECT r.public_json::json AS j) parsed
               WHERE NOT EXISTS (SELECT 1 FROM hidden_reviews h WHERE h.review_id = r.id)`,
            )
          ).rows.map((r) => [r.d, r.p, r.id, Number(r.n)] as const);
          keys.sort(compareKeys);
          let bytes = 0;
          for (const k of keys) bytes += k[3];
          // Only the ids are kept through the read.
          const order = keys.map((k) => k[2]);
          keys.length = 0;
          into.begin({ state, business, count: order.length, bytes });
          for (let i = 0; i < order.length; i += READ_BATCH) {
            const ids = order.slice(i, i + READ_BATCH);
            const batch = await query<{ id: string; public_json: string }>(
              'SELECT id, public_json FROM reviews WHERE id = ANY($1::text[])',
              [ids],
            );
            const byId = new Map(batch.rows.map((r) => [r.id, r.public_json]));
            for (const id of ids) into.review(byId.get(id)!);
          }
        },
        { isolation: 'REPEATABLE READ', readOnly: true },
      ),
    async countReviews() {
      const { rows } = await db.query<{ n: number }>('SELECT count(*) AS n FROM reviews');
      return rows[0]!.n;
    },
    async countDerivedBefore(version) {
      const { rows } = await db.query<{ n: number }>(
        'SELECT count(*) AS n FROM reviews WHERE derived_version < $1::bigint',
        [version],
      );
      return rows[0]!.n;
    },
    transaction: (fn) => runPostgresTransaction(db, fn),
    watch: (listener) => watcher.watch(listener),
    close() {
      closed ??= (async () => {
        await watcher.stop();
        await migration.settled();
        await pool.end();
      })();
      return closed;
    },
  };
}
