/** The PostgreSQL engine of the insights' stored analyses. */
import type { PgDb } from '../internal/postgres-db.js';
import type { AnalysisStore } from './types.js';

/** Analyses per statement when writing. */
const CHUNK = 1_000;

export function createPostgresAnalysisStore(db: PgDb): AnalysisStore {
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
