import { own } from '../../platform/dict.js';
import { writePostgresChanges } from '../changes/postgres.js';
import type { PgDb, Query } from '../internal/postgres-db.js';
import { bumpVersion } from '../internal/postgres-transaction.js';
import {
  decide,
  FORGET_MEMBERS,
  HIDDEN_BY_SOURCE,
  PUBLISHED_MEMBERS,
  type Decision,
} from './reconcile.js';
import {
  ACQUIRE,
  FINISH,
  finishParams,
  GET,
  toSourceRun,
  type Param,
  type SourceRunRow,
} from './statements.js';
import type { Reconciled, SourceListing, SourceRunStore } from './types.js';

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
const published = numbered(PUBLISHED_MEMBERS);
const hiddenBy = numbered(HIDDEN_BY_SOURCE);
const forget = numbered(FORGET_MEMBERS);
const finish = numbered(FINISH);
const get = numbered(GET);

/** The writes of a decision (membership, hides and unhides, their log), set-wise. */
async function apply(query: Query, name: string, listing: SourceListing, d: Decision) {
  if (listing.full) await query(forget.text, forget.values({ name }));
  await query(
    `INSERT INTO source_reviews (source_name, review_id) SELECT $1, unnest($2::text[])
     ON CONFLICT DO NOTHING`,
    [name, [...listing.ids]],
  );
  await query(
    `INSERT INTO hidden_reviews (review_id, hidden_at, hidden_by)
     SELECT unnest($1::text[]), $2, $3`,
    [d.removed, listing.at, name],
  );
  await query('DELETE FROM hidden_reviews WHERE review_id = ANY($1::text[]) AND hidden_by = $2', [
    d.restored,
    name,
  ]);
  await query(
    `INSERT INTO moderation_log (review_id, action, reason, actor, at)
     SELECT id, action, reason, actor, at
     FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::timestamptz[])
       AS l(id, action, reason, actor, at)`,
    ['reviewId', 'action', 'reason', 'actor', 'at'].map((k) =>
      d.log.map((r) => r[k as keyof typeof r]),
    ),
  );
}

/** `reconcile` in one transaction that first locks the data version row (as a moderation decision does). */
function reconcileIn(db: PgDb, name: string, listing: SourceListing): Promise<Reconciled> {
  return db.transaction(async (query) => {
    await query('SELECT 1 FROM data_state WHERE id = 1 FOR UPDATE');
    const ids = async (q: typeof published): Promise<string[]> =>
      (await query<{ review_id: string }>(q.text, q.values({ name }))).rows.map((r) => r.review_id);
    const read = {
      published: listing.full ? await ids(published) : [],
      hidden: await ids(hiddenBy),
    };
    const d = decide(name, listing, read);
    const done = { removed: d.removed, restored: d.restored };
    if (listing.dryRun) return { ...done, state: null };
    await apply(query, name, listing, d);
    if (d.feed.length === 0) return { ...done, state: null };
    const state = await bumpVersion(query, listing.at, null);
    await writePostgresChanges(query, d.feed);
    return { ...done, state };
  });
}

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
    reconcile: (name, listing) => reconcileIn(db, name, listing),
  };
}
