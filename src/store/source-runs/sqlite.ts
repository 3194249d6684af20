import type Database from 'better-sqlite3';
import type { WriteRunner } from '../internal/sqlite-staged.js';
import {
  ACQUIRE,
  FINISH,
  finishParams,
  GET,
  toSourceRun,
  type SourceRunRow,
} from './statements.js';
import type { SourceRunStore } from './types.js';

type Db = Database.Database;

const named = (name: string): string => `@${name}`;

/** The SQLite source runs: each lease change one short write transaction. */
export function createSqliteSourceRunStore(
  reader: Db,
  writer: Db,
  write: WriteRunner,
): SourceRunStore {
  return {
    acquire(name, holder, nowMs, leaseMs) {
      return write(
        () =>
          writer
            .prepare(ACQUIRE(named))
            .get({ name, holder, until: nowMs + leaseMs, now: nowMs }) !== undefined,
      );
    },
    finish(name, holder, outcome) {
      return write(
        () => writer.prepare(FINISH(named)).get(finishParams(name, holder, outcome)) !== undefined,
      );
    },
    async get(name) {
      const row = reader.prepare(GET(named)).get({ name }) as SourceRunRow | undefined;
      return row === undefined ? null : toSourceRun(row);
    },
  };
}
