/**
 * The schema migrations of both engines, in one list: each version has its SQLite and its
 * PostgreSQL SQL, applied in order, one transaction each, by one runner (`runMigrations`) under
 * each engine's lock. Never edit a shipped migration (existing stores have applied it): append a
 * new version with both engines' SQL.
 *
 * Column types of the PostgreSQL schema: times that the code passes as milliseconds since the
 * epoch (WebSub, sessions, rate windows) are BIGINT, and RFC 3339 times (data version, reviews,
 * moderation) are TIMESTAMPTZ; ids and versions are BIGINT. JSON records stay TEXT, so that every
 * byte the service publishes (and the business record it compares) comes back as it was written.
 */

export interface Migration {
  version: number;
  name: string;
  sqlite: string;
  postgres: string;
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'reviews',
    sqlite: `
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
    postgres: `
    CREATE TABLE data_state (
      id INTEGER PRIMARY KEY CHECK (id = 1),
      version BIGINT NOT NULL,
      changed_at TIMESTAMPTZ NOT NULL
    );
    INSERT INTO data_state (id, version, changed_at) VALUES (1, 0, '1970-01-01T00:00:00.000Z');

    CREATE TABLE business (
      id INTEGER PRIMARY KEY CHECK (id = 1),
      record TEXT NOT NULL,
      updated_at TIMESTAMPTZ NOT NULL
    );

    CREATE TABLE reviews (
      id TEXT PRIMARY KEY,
      source TEXT NOT NULL,
      source_review_id TEXT NOT NULL,
      source_hash TEXT NOT NULL,
      source_record TEXT NOT NULL,
      public_json TEXT NOT NULL,
      ingested_at TIMESTAMPTZ NOT NULL,
      UNIQUE (source, source_review_id)
    );
    `,
  },
  {
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
  },
  // 3: the WebSub hub (subscriptions, verifications of intent, topic versions, deliveries).
  {
    version: 3,
    name: 'websub',
    sqlite: `
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
    postgres: `
    CREATE TABLE websub_subscriptions (
      topic TEXT NOT NULL,
      callback TEXT NOT NULL,
      callback_host TEXT NOT NULL,
      secret TEXT,
      lease_seconds INTEGER NOT NULL,
      expires_at BIGINT NOT NULL,
      failures INTEGER NOT NULL DEFAULT 0,
      created_at BIGINT NOT NULL,
      updated_at BIGINT NOT NULL,
      PRIMARY KEY (topic, callback)
    );
    CREATE INDEX websub_subscriptions_expires ON websub_subscriptions (expires_at);
    CREATE INDEX websub_subscriptions_host ON websub_subscriptions (callback_host);

    CREATE TABLE websub_intents (
      id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
      mode TEXT NOT NULL CHECK (mode IN ('subscribe', 'unsubscribe', 'denied')),
      topic TEXT NOT NULL,
      callback TEXT NOT NULL,
      callback_host TEXT NOT NULL,
      secret TEXT,
      lease_seconds INTEGER,
      reason TEXT,
      created_at BIGINT NOT NULL,
      claimed_by TEXT,
      claimed_until BIGINT
    );
    CREATE INDEX websub_intents_key ON websub_intents (topic, callback, id);
    CREATE INDEX websub_intents_host ON websub_intents (callback_host);

    CREATE TABLE websub_topics (
      topic TEXT PRIMARY KEY,
      version BIGINT NOT NULL,
      etag TEXT NOT NULL,
      updated_at BIGINT NOT NULL
    );

    CREATE TABLE websub_deliveries (
      id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
      topic TEXT NOT NULL,
      callback TEXT NOT NULL,
      callback_host TEXT NOT NULL,
      min_version BIGINT NOT NULL,
      attempts INTEGER NOT NULL DEFAULT 0,
      due_at BIGINT NOT NULL,
      claimed_by TEXT,
      claimed_until BIGINT,
      UNIQUE (topic, callback),
      FOREIGN KEY (topic, callback) REFERENCES websub_subscriptions (topic, callback) ON DELETE CASCADE
    );
    CREATE INDEX websub_deliveries_due ON websub_deliveries (due_at, id);
    `,
  },
  // 4: per-text ABSA analyses kept across restarts (derived data: a cache, safe to delete).
  {
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
  },
  // 5: the version of the derivation code that produced each stored public record, so that
  // records derived by older code are derived again instead of served.
  {
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
  },
  // 6: reviews an operator took out of publication (dealer-reviews remove), by public id and apart
  // from the reviews table, so that re-imports and --prune never bring one back; and the log of
  // every hide and unhide (who, when, why).
  {
    version: 6,
    name: 'moderation',
    sqlite: `
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
    postgres: `
    CREATE TABLE hidden_reviews (
      review_id TEXT PRIMARY KEY,
      hidden_at TIMESTAMPTZ NOT NULL
    );

    CREATE TABLE moderation_log (
      seq BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      review_id TEXT NOT NULL,
      action TEXT NOT NULL CHECK (action IN ('hide', 'unhide')),
      reason TEXT,
      actor TEXT NOT NULL,
      at TIMESTAMPTZ NOT NULL
    );
    CREATE INDEX moderation_log_review ON moderation_log (review_id, seq);
    `,
  },
  // 7: fixed-window request counters (the hub's and MCP's rate limits), shared by every instance.
  {
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
  },
  // 8: the resources each MCP session subscribed to (resources/subscribe) and the log level it
  // set (logging/setLevel), kept until the session would have expired, so that whichever
  // instance holds its event stream notifies it.
  {
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
  },
];

type MaybePromise<T> = T | Promise<T>;

/** Runs `next` on the value, at once when it is one, after it when it is a promise. */
function then<T, U>(value: MaybePromise<T>, next: (value: T) => MaybePromise<U>): MaybePromise<U> {
  return value instanceof Promise ? value.then(next) : next(value);
}

/**
 * What the runner needs of an engine: its table of applied versions, its lock and its SQL. A
 * synchronous driver (SQLite) returns plain values, an asynchronous one (PostgreSQL) promises.
 */
export interface MigrationTarget<R extends MaybePromise<void>> {
  /** Creates the table of applied versions when it is missing. */
  prepare(): R;
  /** The versions applied so far. */
  applied(): MaybePromise<ReadonlySet<number>>;
  /**
   * Runs `fn` in one transaction that holds the engine's migration lock (SQLite's write lock,
   * PostgreSQL's advisory lock): commits what it did, or rolls back and rethrows.
   */
  locked(fn: () => R): R;
  /** Runs the engine's SQL of `migration` and records its version (inside `locked`). */
  apply(migration: Migration): R;
}

/**
 * Applies every migration not applied yet, in order, each in its own locked transaction that
 * first looks again whether another process applied it while this one waited for the lock: two
 * instances started together migrate once. Returns a promise when the target is asynchronous.
 */
export function runMigrations(target: MigrationTarget<void>): void;
export function runMigrations(target: MigrationTarget<Promise<void>>): Promise<void>;
export function runMigrations(target: MigrationTarget<MaybePromise<void>>): MaybePromise<void> {
  const from = (applied: ReadonlySet<number>, index: number): MaybePromise<void> => {
    const migration = MIGRATIONS[index];
    if (!migration) return;
    if (applied.has(migration.version)) return from(applied, index + 1);
    const once = () =>
      then(target.applied(), (now) =>
        now.has(migration.version) ? undefined : target.apply(migration),
      );
    return then(target.locked(once), () => from(applied, index + 1));
  };
  return then(target.prepare(), () => then(target.applied(), (applied) => from(applied, 0)));
}
