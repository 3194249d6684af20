import type { Migration } from '../migrations.js';

/** Schema version 2: sessions. */
export const v2: Migration = {
  version: 2,
  name: 'sessions',
  sqlite: `
  CREATE TABLE service_secrets (
    name TEXT PRIMARY KEY,
    value TEXT NOT NULL,
    created_at TEXT NOT NULL
  );

  CREATE TABLE mcp_ended_sessions (
    session_key TEXT PRIMARY KEY,
    expires_at INTEGER NOT NULL
  );
  CREATE INDEX mcp_ended_sessions_expiry ON mcp_ended_sessions (expires_at);
  `,
  postgres: `
    CREATE TABLE service_secrets (
      name TEXT PRIMARY KEY,
      value TEXT NOT NULL,
      created_at TIMESTAMPTZ NOT NULL
    );

    CREATE TABLE mcp_ended_sessions (
      session_key TEXT PRIMARY KEY,
      expires_at BIGINT NOT NULL
    );
    CREATE INDEX mcp_ended_sessions_expiry ON mcp_ended_sessions (expires_at);
    `,
};
