import type { Migration } from '../migrations.js';
import { forBothEngines, type Dialect } from './engines.js';

/** The published order (domain/order.ts) in SQL: `date`, `datePublished`, `id`, newest first. */
const publishedOrder = (d: Dialect): string => {
  const field = (name: string) =>
    d.engine === 'postgres'
      ? `(public_json::json->>'${name}') COLLATE "C"`
      : `json_extract(public_json, '$.${name}')`;
  const id = d.engine === 'postgres' ? 'id COLLATE "C"' : 'id';
  return `${field('date')} DESC, ${field('datePublished')} DESC, ${id} DESC`;
};

/** A random store epoch of 16 hexadecimal digits. */
const randomEpoch = (d: Dialect): string =>
  d.engine === 'postgres'
    ? 'substr(md5(random()::text || clock_timestamp()::text), 1, 16)'
    : 'lower(hex(randomblob(8)))';

/**
 * Schema version 9: the change feed of the published reviews (`GET /api/reviews/changes`): one row
 * per review id at the sequence number of its latest change (`removed_at` null for an upsert, set
 * for a removal with its `reason`), the store's change counter and its random epoch (the cursors'
 * store). Every review published now is back-filled, in published order, so that a newcomer can
 * replay the feed from its beginning.
 */
export const v9: Migration = {
  version: 9,
  name: 'review-changes',
  ...forBothEngines(
    (d) => `
  ALTER TABLE data_state ADD COLUMN change_seq ${d.bigint} NOT NULL DEFAULT 0;
  ALTER TABLE data_state ADD COLUMN change_epoch TEXT NOT NULL DEFAULT '';
  UPDATE data_state SET change_epoch = ${randomEpoch(d)};

  CREATE TABLE review_changes (
    review_id TEXT PRIMARY KEY,
    seq ${d.bigint} NOT NULL UNIQUE,
    removed_at ${d.time},
    reason TEXT CHECK (reason IN ('deleted', 'hidden')),
    CHECK ((removed_at IS NULL) = (reason IS NULL))
  )${d.keyedTable};

  INSERT INTO review_changes (review_id, seq, removed_at, reason)
  SELECT id, row_number() OVER (ORDER BY ${publishedOrder(d)}), NULL, NULL
  FROM reviews WHERE id NOT IN (SELECT review_id FROM hidden_reviews);
  UPDATE data_state SET change_seq = (SELECT count(*) FROM review_changes);
  `,
  ),
};
