/** The SQLite engine of the insights' stored analyses. */
import type Database from 'better-sqlite3';
import type { WriteRunner } from '../internal/sqlite-staged.js';
import type { AnalysisStore } from './types.js';

type Db = Database.Database;

export function createSqliteAnalysisStore(
  reader: Db,
  writer: Db,
  write: WriteRunner,
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
      return write(() => {
        for (const [key, analysis] of entries) putOne.run(key, analysis);
      });
    },
    async count() {
      return reader.prepare('SELECT count(*) FROM text_analyses').pluck().get() as number;
    },
    retain(keep) {
      return write(() => {
        let deleted = 0;
        const keys = writer.prepare('SELECT key FROM text_analyses').pluck().all() as string[];
        for (const key of keys) if (!keep.has(key)) deleted += deleteOne.run(key).changes;
        return deleted;
      });
    },
  };
}
