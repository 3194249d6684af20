import type { Migration } from '../migrations.js';
import { forBothEngines } from './engines.js';

/** Schema version 1: reviews. */
export const v1: Migration = {
  version: 1,
  name: 'reviews',
  ...forBothEngines(
    (d) => `
  CREATE TABLE data_state (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    version ${d.bigint} NOT NULL,
    changed_at ${d.time} NOT NULL
  );
  INSERT INTO data_state (id, version, changed_at) VALUES (1, 0, '1970-01-01T00:00:00.000Z');

  CREATE TABLE business (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    record TEXT NOT NULL,
    updated_at ${d.time} NOT NULL
  );

  CREATE TABLE reviews (
    id TEXT PRIMARY KEY,
    source TEXT NOT NULL,
    source_review_id TEXT NOT NULL,
    source_hash TEXT NOT NULL,
    source_record TEXT NOT NULL,
    public_json TEXT NOT NULL,
    ingested_at ${d.time} NOT NULL,
    UNIQUE (source, source_review_id)
  );
  `,
  ),
};
