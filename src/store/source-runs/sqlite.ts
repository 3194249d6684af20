import type Database from 'better-sqlite3';
import { recordSqliteChanges } from '../changes/sqlite.js';
import { readState, type WriteRunner } from '../internal/sqlite-staged.js';
import {
  decide,
  FORGET_MEMBERS,
  HIDDEN_BY_SOURCE,
  HIDE,
  PUBLISHED_MEMBERS,
  UNHIDE,
} from './reconcile.js';
import {
  ACQUIRE,
  FINISH,
  finishParams,
  GET,
  toSourceRun,
  type SourceRunRow,
} from './statements.js';
import type { Reconciled, SourceListing, SourceRunStore } from './types.js';

type Db = Database.Database;

const named = (name: string): string => `@${name}`;

/** `reconcile` inside the writer's transaction. */
function reconcileOn(db: Db, name: string, listing: SourceListing): Reconciled {
  const ids = (sql: string): string[] => db.prepare(sql).pluck().all({ name }) as string[];
  const read = {
    published: listing.full ? ids(PUBLISHED_MEMBERS(named)) : [],
    hidden: ids(HIDDEN_BY_SOURCE(named)),
  };
  const d = decide(name, listing, read);
  if (listing.dryRun) return { removed: d.removed, restored: d.restored, state: null };
  if (listing.full) db.prepare(FORGET_MEMBERS(named)).run({ name });
  const member = db.prepare(
    'INSERT INTO source_reviews (source_name, review_id) VALUES (?, ?) ON CONFLICT DO NOTHING',
  );
  for (const id of listing.ids) member.run(name, id);
  const hide = db.prepare(HIDE(named));
  for (const id of d.removed) hide.run({ id, at: listing.at, name });
  const unhide = db.prepare(UNHIDE(named));
  for (const id of d.restored) unhide.run({ id, name });
  const log = db.prepare(
    'INSERT INTO moderation_log (review_id, action, reason, actor, at) VALUES (?, ?, ?, ?, ?)',
  );
  for (const r of d.log) log.run(r.reviewId, r.action, r.reason, r.actor, r.at);
  if (d.feed.length === 0) return { removed: d.removed, restored: d.restored, state: null };
  db.prepare('UPDATE data_state SET version = version + 1, changed_at = ? WHERE id = 1').run(
    listing.at,
  );
  recordSqliteChanges(db, d.feed);
  return { removed: d.removed, restored: d.restored, state: readState(db) };
}

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
    reconcile(name, listing) {
      return write(() => reconcileOn(writer, name, listing));
    },
  };
}
