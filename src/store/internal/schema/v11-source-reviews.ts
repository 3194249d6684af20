import type { Migration } from '../migrations.js';
import { forBothEngines } from './engines.js';

/**
 * Schema version 11: what each configured review source brought in (`source_reviews`: the public
 * ids its last full pass listed, and those its incremental runs added since), so that a full pass
 * removes only its own reviews (never those of another source with the same `reviews.source`);
 * and who hid a review (`hidden_reviews.hidden_by`: the source that no longer lists it, or NULL
 * for an operator's `remove`), so that a review the source lists again comes back and one an
 * operator hid never does.
 */
export const v11: Migration = {
  version: 11,
  name: 'source-reviews',
  ...forBothEngines(
    (d) => `
  ALTER TABLE hidden_reviews ADD COLUMN hidden_by TEXT;

  CREATE TABLE source_reviews (
    source_name TEXT NOT NULL,
    review_id TEXT NOT NULL,
    PRIMARY KEY (source_name, review_id)
  )${d.keyedTable};
  `,
  ),
};
