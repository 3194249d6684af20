import type pg from 'pg';
import { runMigrations } from './migrations.js';

/**
 * The key of the advisory lock that schema migrations hold (any constant of the bigint key
 * space; the WebSub locks use the two-integer space, which never overlaps it).
 */
const MIGRATION_LOCK = 7_301_948_162_512_203;

/** The oldest server the schema and the store's statements are written for. */
const MIN_SERVER_VERSION = 120_000;

/**
 * Migrates the database on one connection of `pool`: each migration in its own transaction,
 * holding `pg_advisory_xact_lock` (released at commit or rollback), so that instances started
 * together apply each migration once; the others wait, then find it applied. Fails on a server
 * older than PostgreSQL 12.
 */
export async function migratePostgres(pool: pg.Pool): Promise<void> {
  const client = await pool.connect();
  let broken: Error | undefined;
  const lost = (err: Error): void => void (broken = err);
  client.on('error', lost);
  try {
    const { rows } = await client.query<{ server_version_num: string }>('SHOW server_version_num');
    const serverVersion = Number(rows[0]!.server_version_num);
    if (serverVersion < MIN_SERVER_VERSION) {
      throw new Error(
        `PostgreSQL 12 or newer is needed (this server is version ${Math.floor(serverVersion / 10_000)})`,
      );
    }
    const locked = async (fn: () => Promise<void>): Promise<void> => {
      await client.query('BEGIN');
      try {
        await client.query('SELECT pg_advisory_xact_lock($1::bigint)', [MIGRATION_LOCK]);
        await fn();
        await client.query('COMMIT');
      } catch (err) {
        await client.query('ROLLBACK').catch((e: Error) => (broken = e));
        throw err;
      }
    };
    await runMigrations({
      // Under the lock too: two CREATE TABLE IF NOT EXISTS at once may both try to create it.
      prepare: () =>
        locked(async () => {
          await client.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
            version INTEGER PRIMARY KEY,
            name TEXT NOT NULL,
            applied_at TIMESTAMPTZ NOT NULL DEFAULT now()
          )`);
        }),
      async applied() {
        const applied = await client.query<{ version: number }>(
          'SELECT version FROM schema_migrations',
        );
        return new Set(applied.rows.map((r) => r.version));
      },
      locked,
      async apply(migration) {
        await client.query(migration.postgres);
        await client.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [
          migration.version,
          migration.name,
        ]);
      },
    });
  } finally {
    client.off('error', lost);
    client.release(broken);
  }
}

/** The schema's migration as the store runs it (`migrateWhenUsed`). */
export interface Migration {
  /**
   * Resolves once the schema is migrated: shares the run under way, or starts one when none has
   * succeeded yet.
   */
  ready(): Promise<void>;
  /** Waits for the run under way, if any, starting none (before the pool is closed). */
  settled(): Promise<void>;
}

/**
 * Migrates the database on `pool` now, and again at the next use if this run fails: a run that
 * failed (the server away or restarting, as when a build worker starts during an outage) is
 * forgotten instead of failing every later call for the store's whole life. Calls made while a
 * run is under way share it (and its failure).
 */
export function migrateWhenUsed(pool: pg.Pool): Migration {
  let run: Promise<void> | null = null;
  const ready = (): Promise<void> =>
    (run ??= migratePostgres(pool).catch((err: unknown) => {
      run = null;
      throw err;
    }));
  // Started at once; its failure is reported to whoever waits for it.
  ready().catch(() => undefined);
  return {
    ready,
    settled: () => (run ?? Promise.resolve()).catch(() => undefined),
  };
}
