/**
 * SQLite schema migrations, applied in order inside one transaction each. Never edit a shipped
 * migration; append a new one.
 */
export const SQLITE_MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE data_state (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    version INTEGER NOT NULL,
    changed_at TEXT NOT NULL
  );
  INSERT INTO data_state (id, version, changed_at) VALUES (1, 0, '1970-01-01T00:00:00.000Z');

  CREATE TABLE business (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    record TEXT NOT NULL,
    updated_at TEXT NOT NULL
  );

  CREATE TABLE reviews (
    id TEXT PRIMARY KEY,
    source TEXT NOT NULL,
    source_review_id TEXT NOT NULL,
    source_hash TEXT NOT NULL,
    source_record TEXT NOT NULL,
    public_json TEXT NOT NULL,
    ingested_at TEXT NOT NULL,
    UNIQUE (source, source_review_id)
  );
  `,
  `
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
];
