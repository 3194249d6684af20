/**
 * The SQLite statements the hub's engine is built of (run inside the caller's write transaction):
 * its primitives, with no decision of the hub's policy (`policy.ts`).
 */
import type Database from 'better-sqlite3';
import { sameNamePrefixes } from './rows.js';
import type { ClaimOptions, NewIntent, NewSubscription } from './types.js';

export type Db = Database.Database;

export function claimParams(o: ClaimOptions) {
  return {
    owner: o.owner,
    now: o.now,
    until: o.now + o.leaseMs,
    limit: o.limit,
    scan: Math.max(64, o.limit * 4),
    perHost: o.perHost,
    remaining: JSON.stringify(o.hostRemaining),
  };
}

export function upsertSubscription(writer: Db, s: NewSubscription, now: number): void {
  writer
    .prepare(
      `INSERT INTO websub_subscriptions
         (topic, callback, callback_host, secret, lease_seconds, expires_at, failures, created_at, updated_at)
       VALUES (@topic, @callback, @callbackHost, @secret, @leaseSeconds, @expiresAt, 0, @now, @now)
       ON CONFLICT (topic, callback) DO UPDATE SET
         secret = excluded.secret, lease_seconds = excluded.lease_seconds,
         expires_at = excluded.expires_at, failures = 0, updated_at = excluded.updated_at`,
    )
    .run({ ...s, now });
}

export function insertIntent(writer: Db, i: NewIntent, now: number): void {
  writer
    .prepare(
      `INSERT INTO websub_intents
         (mode, topic, callback, callback_host, secret, lease_seconds, reason, created_at)
       VALUES (@mode, @topic, @callback, @callbackHost, @secret, @leaseSeconds, @reason, @now)`,
    )
    .run({ ...i, now });
}

export function removeSubscription(writer: Db, topic: string, callback: string): void {
  writer
    .prepare('DELETE FROM websub_subscriptions WHERE topic = ? AND callback = ?')
    .run(topic, callback);
}

/**
 * Subscriptions and pending requests that count against the cap of `intent`'s callback host: those
 * kept under the same host key (the resolved address), and those whose callback has the same name.
 */
export function countHostLoad(writer: Db, intent: NewIntent): number {
  const sameHost = `(callback_host = @host OR substr(callback, 1, length(@slash)) = @slash
      OR substr(callback, 1, length(@colon)) = @colon)`;
  return writer
    .prepare(
      `SELECT (SELECT count(*) FROM websub_subscriptions WHERE ${sameHost})
            + (SELECT count(*) FROM websub_intents WHERE ${sameHost} AND mode <> 'denied')`,
    )
    .pluck()
    .get({ host: intent.callbackHost, ...sameNamePrefixes(intent.callback) }) as number;
}

export function isSubscribed(db: Db, topic: string, callback: string): boolean {
  return (
    db
      .prepare('SELECT 1 FROM websub_subscriptions WHERE topic = ? AND callback = ?')
      .get(topic, callback) !== undefined
  );
}
