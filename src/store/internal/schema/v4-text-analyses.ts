import type { Migration } from '../migrations.js';

/** Schema version 4: per-text ABSA analyses kept across restarts (derived data: a cache, safe to delete). */
export const v4: Migration = {
  version: 4,
  name: 'text-analyses',
  sqlite: `
  CREATE TABLE text_analyses (
    key TEXT PRIMARY KEY,
    analysis TEXT NOT NULL
  ) WITHOUT ROWID;
  `,
  postgres: `
    CREATE TABLE text_analyses (
      key TEXT PRIMARY KEY,
      analysis TEXT NOT NULL
    );
    `,
};
