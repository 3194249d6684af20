import type Database from 'better-sqlite3';
import type { WriteRunner } from '../internal/sqlite-staged.js';
import type { RateDecision, RateStore } from './types.js';

type Db = Database.Database;

/**
 * The SQLite rate counters: one row per key, its window start and count, updated in one write
 * transaction per request. Windows that ended long ago are deleted now and then.
 */
export function createSqliteRateStore(writer: Db, write: WriteRunner): RateStore {
  let calls = 0;
  return {
    take(key, nowMs, windowMs, limit) {
      return write((): RateDecision => {
        if (++calls % 1000 === 0) {
          writer
            .prepare('DELETE FROM rate_windows WHERE window_start < ?')
            .run(nowMs - 2 * windowMs);
        }
        const row = writer
          .prepare(
            `INSERT INTO rate_windows (key, window_start, count) VALUES (@key, @now, 1)
             ON CONFLICT (key) DO UPDATE SET
               window_start = CASE WHEN @now - window_start >= @window THEN @now ELSE window_start END,
               count = CASE WHEN @now - window_start >= @window THEN 1 ELSE count + 1 END
             RETURNING window_start AS start, count`,
          )
          .get({ key, now: nowMs, window: windowMs }) as { start: number; count: number };
        if (row.count <= limit) return { ok: true };
        return { ok: false, retryAfterMs: Math.max(1, row.start + windowMs - nowMs) };
      });
    },
  };
}
