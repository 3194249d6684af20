import { own } from '../../platform/dict.js';
import type { PgDb } from '../internal/postgres-db.js';
import {
  ACQUIRE,
  FINISH,
  finishParams,
  GET,
  toSourceRun,
  type Param,
  type SourceRunRow,
} from './statements.js';
import type { SourceRunStore } from './types.js';

/** A statement in PostgreSQL's numbered form, and its values from named parameters. */
function numbered(sql: (p: Param) => string): {
  text: string;
  values: (params: Record<string, unknown>) => unknown[];
} {
  const names: string[] = [];
  const text = sql((name) => {
    if (!names.includes(name)) names.push(name);
    return `$${names.indexOf(name) + 1}`;
  });
  return { text, values: (params) => names.map((n) => own(params, n)) };
}

const acquire = numbered(ACQUIRE);
const finish = numbered(FINISH);
const get = numbered(GET);

/**
 * The PostgreSQL source runs: each lease change is one statement, atomic on the source's row, so
 * instances that race for a lease get it once.
 */
export function createPostgresSourceRunStore(db: PgDb): SourceRunStore {
  return {
    async acquire(name, holder, nowMs, leaseMs) {
      const params = { name, holder, until: nowMs + leaseMs, now: nowMs };
      const { rowCount } = await db.query(acquire.text, acquire.values(params));
      return rowCount === 1;
    },
    async finish(name, holder, outcome) {
      const { rowCount } = await db.query(
        finish.text,
        finish.values(finishParams(name, holder, outcome)),
      );
      return rowCount === 1;
    },
    async get(name) {
      const { rows } = await db.query<SourceRunRow>(get.text, get.values({ name }));
      return rows[0] === undefined ? null : toSourceRun(rows[0]);
    },
  };
}
