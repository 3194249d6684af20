import type { Migration } from '../migrations.js';

/** Schema version 8: the resources each MCP session subscribed to (resources/subscribe) and the log level it set (logging/setLevel), kept until the session would have expired, so that whichever instance holds its event stream notifies it. */
export const v8: Migration = {
  version: 8,
  name: 'mcp-subscriptions',
  sqlite: `
  CREATE TABLE mcp_subscriptions (
    session_key TEXT NOT NULL,
    uri TEXT NOT NULL,
    expires_at INTEGER NOT NULL,
    PRIMARY KEY (session_key, uri)
  ) WITHOUT ROWID;
  CREATE INDEX mcp_subscriptions_expiry ON mcp_subscriptions (expires_at);

  CREATE TABLE mcp_log_levels (
    session_key TEXT PRIMARY KEY,
    level TEXT NOT NULL,
    expires_at INTEGER NOT NULL
  ) WITHOUT ROWID;
  CREATE INDEX mcp_log_levels_expiry ON mcp_log_levels (expires_at);
  `,
  postgres: `
    CREATE TABLE mcp_subscriptions (
      session_key TEXT NOT NULL,
      uri TEXT NOT NULL,
      expires_at BIGINT NOT NULL,
      PRIMARY KEY (session_key, uri)
    );
    CREATE INDEX mcp_subscriptions_expiry ON mcp_subscriptions (expires_at);

    CREATE TABLE mcp_log_levels (
      session_key TEXT PRIMARY KEY,
      level TEXT NOT NULL,
      expires_at BIGINT NOT NULL
    );
    CREATE INDEX mcp_log_levels_expiry ON mcp_log_levels (expires_at);
    `,
};
