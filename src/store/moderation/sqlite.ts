import type Database from 'better-sqlite3';
import type { DataState } from '../core/types.js';
import { recordSqliteChanges } from '../changes/sqlite.js';
import { moderationChange } from '../changes/moderation.js';
import {
  HIDE_FOR_OPERATOR,
  LOG_COLUMNS,
  toRecord,
  unchangedOutcome,
  type LogRow,
  type ReviewState,
} from './engines.js';
import type { ModerationOutcome, ModerationRecord, ModerationStore } from './types.js';
import { readState, type WriteRunner } from '../internal/sqlite-staged.js';

type Db = Database.Database;

/** Whether the review is stored, and whether it is hidden (by whom), as the writer sees it now. */
function stateOf(db: Db, reviewId: string): ReviewState {
  const stored = db.prepare('SELECT 1 FROM reviews WHERE id = ?').get(reviewId) !== undefined;
  const row = db
    .prepare('SELECT hidden_by FROM hidden_reviews WHERE review_id = ?')
    .get(reviewId) as { hidden_by: string | null } | undefined;
  return { stored, hidden: row !== undefined, hiddenBy: row?.hidden_by ?? null };
}

function change(db: Db, r: ModerationRecord, stored: boolean): DataState {
  if (r.action === 'hide') {
    db.prepare(HIDE_FOR_OPERATOR(() => '?')).run(r.reviewId, r.at);
  } else {
    db.prepare('DELETE FROM hidden_reviews WHERE review_id = ?').run(r.reviewId);
  }
  db.prepare(
    'INSERT INTO moderation_log (review_id, action, reason, actor, at) VALUES (?, ?, ?, ?, ?)',
  ).run(r.reviewId, r.action, r.reason, r.actor, r.at);
  db.prepare('UPDATE data_state SET version = version + 1, changed_at = ? WHERE id = 1').run(r.at);
  // A removal of the published review, or its record published again (if it is still stored).
  if (stored) recordSqliteChanges(db, [moderationChange(r)]);
  return readState(db);
}

/**
 * The SQLite moderation store: `hidden_reviews` holds the hidden ids (the dataset read leaves
 * them out), `moderation_log` every decision. A hide, its log entry and the new data version are
 * one transaction on the writer.
 */
export function createSqliteModerationStore(
  reader: Db,
  writer: Db,
  writeSync: WriteRunner,
): ModerationStore {
  return {
    apply(record) {
      return writeSync((): ModerationOutcome => {
        const now = stateOf(writer, record.reviewId);
        const unchanged = unchangedOutcome(record, now);
        if (unchanged) return unchanged;
        return { status: 'changed', state: change(writer, record, now.stored) };
      });
    },
    async hiddenIds() {
      const ids = reader.prepare('SELECT review_id FROM hidden_reviews').pluck().all();
      return new Set(ids as string[]);
    },
    async log(reviewId) {
      const rows = reader
        .prepare(`SELECT ${LOG_COLUMNS} FROM moderation_log WHERE review_id = ? ORDER BY seq`)
        .all(reviewId) as LogRow[];
      return rows.map(toRecord);
    },
  };
}
