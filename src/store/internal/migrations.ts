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
  // 3: the WebSub hub (subscriptions, verifications of intent, topic versions, deliveries).
  `
  CREATE TABLE websub_subscriptions (
    topic TEXT NOT NULL,
    callback TEXT NOT NULL,
    callback_host TEXT NOT NULL,
    secret TEXT,
    lease_seconds INTEGER NOT NULL,
    expires_at INTEGER NOT NULL,
    failures INTEGER NOT NULL DEFAULT 0,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    PRIMARY KEY (topic, callback)
  );
  CREATE INDEX websub_subscriptions_expires ON websub_subscriptions (expires_at);
  CREATE INDEX websub_subscriptions_host ON websub_subscriptions (callback_host);

  CREATE TABLE websub_intents (
    id INTEGER PRIMARY KEY,
    mode TEXT NOT NULL CHECK (mode IN ('subscribe', 'unsubscribe', 'denied')),
    topic TEXT NOT NULL,
    callback TEXT NOT NULL,
    callback_host TEXT NOT NULL,
    secret TEXT,
    lease_seconds INTEGER,
    reason TEXT,
    created_at INTEGER NOT NULL,
    claimed_by TEXT,
    claimed_until INTEGER
  );
  CREATE INDEX websub_intents_key ON websub_intents (topic, callback, id);
  CREATE INDEX websub_intents_host ON websub_intents (callback_host);

  CREATE TABLE websub_topics (
    topic TEXT PRIMARY KEY,
    version INTEGER NOT NULL,
    etag TEXT NOT NULL,
    updated_at INTEGER NOT NULL
  );

  CREATE TABLE websub_deliveries (
    id INTEGER PRIMARY KEY,
    topic TEXT NOT NULL,
    callback TEXT NOT NULL,
    callback_host TEXT NOT NULL,
    min_version INTEGER NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 0,
    due_at INTEGER NOT NULL,
    claimed_by TEXT,
    claimed_until INTEGER,
    UNIQUE (topic, callback),
    FOREIGN KEY (topic, callback) REFERENCES websub_subscriptions (topic, callback) ON DELETE CASCADE
  );
  CREATE INDEX websub_deliveries_due ON websub_deliveries (due_at, id);
  `,
  // 4: per-text ABSA analyses kept across restarts (derived data: a cache, safe to delete).
  `
  CREATE TABLE text_analyses (
    key TEXT PRIMARY KEY,
    analysis TEXT NOT NULL
  ) WITHOUT ROWID;
  `,
  // 5: the version of the derivation code that produced each stored public record, so that
  // records derived by older code are derived again instead of served.
  `
  ALTER TABLE reviews ADD COLUMN derived_version INTEGER NOT NULL DEFAULT 0;
  CREATE INDEX reviews_derived_version ON reviews (derived_version);
  `,
  // 6: reviews an operator took out of publication (dealer-reviews remove), by public id and apart
  // from the reviews table, so that re-imports and --prune never bring one back; and the log of
  // every hide and unhide (who, when, why).
  `
  CREATE TABLE hidden_reviews (
    review_id TEXT PRIMARY KEY,
    hidden_at TEXT NOT NULL
  ) WITHOUT ROWID;

  CREATE TABLE moderation_log (
    seq INTEGER PRIMARY KEY,
    review_id TEXT NOT NULL,
    action TEXT NOT NULL CHECK (action IN ('hide', 'unhide')),
    reason TEXT,
    actor TEXT NOT NULL,
    at TEXT NOT NULL
  );
  CREATE INDEX moderation_log_review ON moderation_log (review_id, seq);
  `,
  // 7: fixed-window request counters (the hub's and MCP's rate limits), shared by every instance.
  `
  CREATE TABLE rate_windows (
    key TEXT PRIMARY KEY,
    window_start INTEGER NOT NULL,
    count INTEGER NOT NULL
  ) WITHOUT ROWID;
  CREATE INDEX rate_windows_start ON rate_windows (window_start);
  `,
  // 8: the resources each MCP session subscribed to (resources/subscribe) and the log level it
  // set (logging/setLevel), kept until the session would have expired, so that whichever
  // instance holds its event stream notifies it.
  `
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
];
