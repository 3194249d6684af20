import { bumpVersion } from '../internal/postgres-transaction.js';
import type { PgDb } from '../internal/postgres-db.js';
import { writePostgresChanges } from '../changes/postgres.js';
import { moderationChange } from '../changes/moderation.js';
import { HIDE_FOR_OPERATOR, LOG_COLUMNS, toRecord, unchangedOutcome } from './engines.js';
import type { LogRow, ReviewState } from './engines.js';
import type { ModerationOutcome, ModerationStore } from './types.js';

/**
 * The PostgreSQL moderation store, on the same tables as SQLite's. A decision is one READ
 * COMMITTED transaction that first locks the data version row, so decisions (and the commits of
 * imports) apply one after another, each seeing the one before; its log entry, the new data
 * version and its change notification commit together.
 */
export function createPostgresModerationStore(db: PgDb): ModerationStore {
  return {
    apply(record) {
      return db.transaction(async (query): Promise<ModerationOutcome> => {
        await query('SELECT 1 FROM data_state WHERE id = 1 FOR UPDATE');
        const { rows } = await query<ReviewState>(
          `SELECT EXISTS (SELECT 1 FROM reviews WHERE id = $1) AS stored,
                  EXISTS (SELECT 1 FROM hidden_reviews WHERE review_id = $1) AS hidden,
                  (SELECT hidden_by FROM hidden_reviews WHERE review_id = $1) AS "hiddenBy"`,
          [record.reviewId],
        );
        const unchanged = unchangedOutcome(record, rows[0]!);
        if (unchanged) return unchanged;
        if (record.action === 'hide') {
          await query(
            HIDE_FOR_OPERATOR((n) => `$${n}`),
            [record.reviewId, record.at],
          );
        } else {
          await query('DELETE FROM hidden_reviews WHERE review_id = $1', [record.reviewId]);
        }
        await query(
          'INSERT INTO moderation_log (review_id, action, reason, actor, at) VALUES ($1, $2, $3, $4, $5)',
          [record.reviewId, record.action, record.reason, record.actor, record.at],
        );
        const state = await bumpVersion(query, record.at, null);
        // A removal of the published review, or its record published again (if still stored).
        if (rows[0]!.stored) await writePostgresChanges(query, [moderationChange(record)]);
        return { status: 'changed', state };
      });
    },
    async hiddenIds() {
      const { rows } = await db.query<{ review_id: string }>(
        'SELECT review_id FROM hidden_reviews',
      );
      return new Set(rows.map((r) => r.review_id));
    },
    async log(reviewId) {
      const { rows } = await db.query<LogRow>(
        `SELECT ${LOG_COLUMNS} FROM moderation_log
         WHERE review_id = $1 ORDER BY seq`,
        [reviewId],
      );
      return rows.map(toRecord);
    },
  };
}
