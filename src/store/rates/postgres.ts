import type { PgDb } from '../internal/postgres-db.js';
import type { RateDecision, RateStore } from './types.js';

/**
 * The PostgreSQL rate counters, on the same table as SQLite's: each request is one
 * `INSERT ... ON CONFLICT DO UPDATE` statement, which PostgreSQL runs atomically on the key's row
 * (concurrent requests of one key, from any instance, wait for each other's row lock, and each
 * counts once). Windows that ended long ago are deleted now and then.
 */
export function createPostgresRateStore(db: PgDb): RateStore {
  let calls = 0;
  return {
    async take(key, nowMs, windowMs, limit): Promise<RateDecision> {
      if (++calls % 1000 === 0) {
        await db.query('DELETE FROM rate_windows WHERE window_start < $1', [nowMs - 2 * windowMs]);
      }
      const { rows } = await db.query<{ start: number; count: number }>(
        `INSERT INTO rate_windows AS w (key, window_start, count) VALUES ($1, $2::bigint, 1)
         ON CONFLICT (key) DO UPDATE SET
           window_start = CASE WHEN $2 - w.window_start >= $3::bigint THEN $2 ELSE w.window_start END,
           count = CASE WHEN $2 - w.window_start >= $3 THEN 1 ELSE w.count + 1 END
         RETURNING window_start AS start, count`,
        [key, nowMs, windowMs],
      );
      const row = rows[0]!;
      if (row.count <= limit) return { ok: true };
      return { ok: false, retryAfterMs: Math.max(1, row.start + windowMs - nowMs) };
    },
  };
}
