import type { Migration } from '../migrations.js';
import { forBothEngines } from './engines.js';

/** Schema version 3: the WebSub hub (subscriptions, verifications of intent, topic versions, deliveries). */
export const v3: Migration = {
  version: 3,
  name: 'websub',
  ...forBothEngines(
    (d) => `
  CREATE TABLE websub_subscriptions (
    topic TEXT NOT NULL,
    callback TEXT NOT NULL,
    callback_host TEXT NOT NULL,
    secret TEXT,
    lease_seconds INTEGER NOT NULL,
    expires_at ${d.bigint} NOT NULL,
    failures INTEGER NOT NULL DEFAULT 0,
    created_at ${d.bigint} NOT NULL,
    updated_at ${d.bigint} NOT NULL,
    PRIMARY KEY (topic, callback)
  );
  CREATE INDEX websub_subscriptions_expires ON websub_subscriptions (expires_at);
  CREATE INDEX websub_subscriptions_host ON websub_subscriptions (callback_host);

  CREATE TABLE websub_intents (
    id ${d.rowId},
    mode TEXT NOT NULL CHECK (mode IN ('subscribe', 'unsubscribe', 'denied')),
    topic TEXT NOT NULL,
    callback TEXT NOT NULL,
    callback_host TEXT NOT NULL,
    secret TEXT,
    lease_seconds INTEGER,
    reason TEXT,
    created_at ${d.bigint} NOT NULL,
    claimed_by TEXT,
    claimed_until ${d.bigint}
  );
  CREATE INDEX websub_intents_key ON websub_intents (topic, callback, id);
  CREATE INDEX websub_intents_host ON websub_intents (callback_host);

  CREATE TABLE websub_topics (
    topic TEXT PRIMARY KEY,
    version ${d.bigint} NOT NULL,
    etag TEXT NOT NULL,
    updated_at ${d.bigint} NOT NULL
  );

  CREATE TABLE websub_deliveries (
    id ${d.rowId},
    topic TEXT NOT NULL,
    callback TEXT NOT NULL,
    callback_host TEXT NOT NULL,
    min_version ${d.bigint} NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 0,
    due_at ${d.bigint} NOT NULL,
    claimed_by TEXT,
    claimed_until ${d.bigint},
    UNIQUE (topic, callback),
    FOREIGN KEY (topic, callback) REFERENCES websub_subscriptions (topic, callback) ON DELETE CASCADE
  );
  CREATE INDEX websub_deliveries_due ON websub_deliveries (due_at, id);
  `,
  ),
};
