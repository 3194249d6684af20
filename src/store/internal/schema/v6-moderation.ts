import type { Migration } from '../migrations.js';
import { forBothEngines } from './engines.js';

/** Schema version 6: reviews an operator took out of publication (dealer-reviews remove), by public id and apart from the reviews table, so that re-imports and --prune never bring one back; and the log of every hide and unhide (who, when, why). */
export const v6: Migration = {
  version: 6,
  name: 'moderation',
  ...forBothEngines(
    (d) => `
  CREATE TABLE hidden_reviews (
    review_id TEXT PRIMARY KEY,
    hidden_at ${d.time} NOT NULL
  )${d.keyedTable};

  CREATE TABLE moderation_log (
    seq ${d.generatedRowId},
    review_id TEXT NOT NULL,
    action TEXT NOT NULL CHECK (action IN ('hide', 'unhide')),
    reason TEXT,
    actor TEXT NOT NULL,
    at ${d.time} NOT NULL
  );
  CREATE INDEX moderation_log_review ON moderation_log (review_id, seq);
  `,
  ),
};
