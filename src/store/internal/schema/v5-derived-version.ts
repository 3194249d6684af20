import type { Migration } from '../migrations.js';

/** Schema version 5: the version of the derivation code that produced each stored public record, so that records derived by older code are derived again instead of served. */
export const v5: Migration = {
  version: 5,
  name: 'derived-version',
  sqlite: `
  ALTER TABLE reviews ADD COLUMN derived_version INTEGER NOT NULL DEFAULT 0;
  CREATE INDEX reviews_derived_version ON reviews (derived_version);
  `,
  postgres: `
    ALTER TABLE reviews ADD COLUMN derived_version INTEGER NOT NULL DEFAULT 0;
    CREATE INDEX reviews_derived_version ON reviews (derived_version);
    `,
};
