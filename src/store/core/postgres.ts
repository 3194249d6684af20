/**
 * The PostgreSQL store: a pool, the schema migrated at the first use, the change watcher, and
 * the parts of the store each capability builds (`sessions/`, `hub/`, `rates/`, `analyses/`,
 * `moderation/`, `transfer/`); the published data's reads are here.
 */
import { compareKeys } from '../../domain/order.js';
import { createPostgresAnalysisStore } from '../analyses/postgres.js';
import { forEachPostgresRemoval, readPostgresFeedHead } from '../changes/postgres.js';
import { createPostgresWebSubStore } from '../hub/postgres.js';
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
import { createPostgresSourceRunStore } from '../source-runs/postgres.js';
import { createPostgresSessionStore } from '../sessions/postgres.js';
import { createPostgresTransfer } from '../transfer/postgres.js';
import type { Dataset, PublishedReader, Store } from './types.js';

/** Reviews read per query by `readPublished`, in published order. */
const READ_BATCH = 1000;

/** The published data as the build reads it: the data version, the dataset, the counts. */
function publishedReads(
  db: PgDb,
): Pick<Store, 'state' | 'readDataset' | 'readPublished' | 'countReviews' | 'countDerivedBefore'> {
  return {
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
            await query<{ d: string; p: string; id: string; n: number; seq: number | null }>(
              `SELECT j->>'date' AS d, j->>'datePublished' AS p, r.id, octet_length(r.public_json) AS n,
                      c.seq
             FROM reviews r CROSS JOIN LATERAL (SELECT r.public_json::json AS j) parsed
             LEFT JOIN review_changes c ON c.review_id = r.id
             WHERE NOT EXISTS (SELECT 1 FROM hidden_reviews h WHERE h.review_id = r.id)`,
            )
          ).rows.map((r) => [r.d, r.p, r.id, Number(r.n), r.seq ?? 0] as const);
          keys.sort(compareKeys);
          let bytes = 0;
          for (const k of keys) bytes += k[3];
          // Only the ids and seqs are kept through the read.
          const order = keys.map((k) => k[2]);
          const seqs = Float64Array.from(keys, (k) => k[4]);
          keys.length = 0;
          const feed = await readPostgresFeedHead(query);
          into.begin({ state, business, count: order.length, bytes, feed });
          for (let i = 0; i < order.length; i += READ_BATCH) {
            const ids = order.slice(i, i + READ_BATCH);
            const batch = await query<{ id: string; public_json: string }>(
              'SELECT id, public_json FROM reviews WHERE id = ANY($1::text[])',
              [ids],
            );
            const byId = new Map(batch.rows.map((r) => [r.id, r.public_json]));
            ids.forEach((id, j) => into.review(byId.get(id)!, seqs[i + j]!));
          }
          await forEachPostgresRemoval(query, (r) => into.removal(r));
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
    sessions: createPostgresSessionStore(db),
    websub: createPostgresWebSubStore(db),
    rates: createPostgresRateStore(db),
    analyses: createPostgresAnalysisStore(db),
    moderation: createPostgresModerationStore(db),
    sources: createPostgresSourceRunStore(db),
    transfer: createPostgresTransfer(db),
    ...publishedReads(db),
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
