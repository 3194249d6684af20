import type { Migration } from '../migrations.js';

/** Schema version 7: fixed-window request counters (the hub's and MCP's rate limits), shared by every instance. */
export const v7: Migration = {
  version: 7,
  name: 'rate-windows',
  sqlite: `
  CREATE TABLE rate_windows (
    key TEXT PRIMARY KEY,
    window_start INTEGER NOT NULL,
    count INTEGER NOT NULL
  ) WITHOUT ROWID;
  CREATE INDEX rate_windows_start ON rate_windows (window_start);
  `,
  postgres: `
    CREATE TABLE rate_windows (
      key TEXT PRIMARY KEY,
      window_start BIGINT NOT NULL,
      count INTEGER NOT NULL
    );
    CREATE INDEX rate_windows_start ON rate_windows (window_start);
    `,
};
