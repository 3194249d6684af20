import type { Migration } from '../migrations.js';
import { forBothEngines } from './engines.js';

/**
 * Schema version 10: the runs of the configured review sources (`src/sources`): one row per
 * source name, with the lease of the instance running it now (`holder`, until `lease_until`, in
 * milliseconds since the epoch) and the outcome of its last runs, shared by every instance.
 */
export const v10: Migration = {
  version: 10,
  name: 'source-runs',
  ...forBothEngines(
    (d) => `
  CREATE TABLE source_runs (
    name TEXT PRIMARY KEY,
    holder TEXT,
    lease_until ${d.bigint} NOT NULL DEFAULT 0,
    last_started_at ${d.bigint},
    last_success_at ${d.bigint},
    last_full_at ${d.bigint},
    last_error TEXT,
    cursor TEXT
  )${d.keyedTable};
  `,
  ),
};
