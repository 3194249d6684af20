import type pg from 'pg';

export type Isolation = 'READ COMMITTED' | 'REPEATABLE READ';

/** A query on one connection (pooled, or the transaction's). */
export type Query = <R extends pg.QueryResultRow = pg.QueryResultRow>(
  text: string,
  values?: unknown[],
) => Promise<pg.QueryResult<R>>;

/**
 * The store's access to its pool, for its parts: every call waits until the schema is migrated
 * (and fails as the migration did, which the next call runs again).
 */
export interface PgDb {
  /** One statement on a pooled connection (its own transaction). */
  query: Query;
  /**
   * Runs `fn` in one transaction on one pooled connection: commits what it did, or rolls back
   * and rethrows. READ COMMITTED unless told otherwise.
   */
  transaction<T>(
    fn: (query: Query) => Promise<T>,
    options?: { isolation?: Isolation; readOnly?: boolean },
  ): Promise<T>;
}

/**
 * A `PgDb` on `pool` that waits for `ready()` (the migration, run again after a failed run)
 * before each call.
 */
export function createPgDb(pool: pg.Pool, ready: () => Promise<void>): PgDb {
  return {
    async query(text, values) {
      await ready();
      return pool.query(text, values);
    },
    async transaction(fn, { isolation = 'READ COMMITTED', readOnly = false } = {}) {
      await ready();
      return inTransaction(pool, fn, isolation, readOnly);
    },
  };
}

/** See `PgDb.transaction`; a connection that failed is discarded, not reused. */
export async function inTransaction<T>(
  pool: pg.Pool,
  fn: (query: Query) => Promise<T>,
  isolation: Isolation = 'READ COMMITTED',
  readOnly = false,
): Promise<T> {
  const client = await pool.connect();
  let broken: Error | undefined;
  // A connection lost while checked out emits an error (and fails the query in flight): noted
  // here, so that it neither goes unhandled nor returns to the pool.
  const lost = (err: Error): void => void (broken = err);
  client.on('error', lost);
  try {
    await client.query(`BEGIN ISOLATION LEVEL ${isolation}${readOnly ? ' READ ONLY' : ''}`);
    const result = await fn((text, values) => client.query(text, values));
    await client.query('COMMIT');
    return result;
  } catch (err) {
    await client.query('ROLLBACK').catch((e: Error) => (broken = e));
    throw err;
  } finally {
    client.off('error', lost);
    client.release(broken);
  }
}
