/**
 * The PostgreSQL statements the hub's engine is built of (run on the caller's connection or
 * transaction): its primitives and advisory locks, with no decision of the hub's policy
 * (`policy.ts`).
 */
import type { Query } from '../internal/postgres-db.js';
import { sameNamePrefixes } from './rows.js';
import type { ClaimOptions, NewIntent, NewSubscription } from './types.js';

/**
 * Namespaces of the transaction-scoped advisory locks (`pg_advisory_xact_lock(namespace,
 * hashtext(key))`) that make a read-then-write of the hub apply one at a time per key, across
 * instances, as SQLite's single writer does: a topic's announcement, a callback host's
 * admission.
 */
export const TOPIC_LOCK = 0x5755_0001;
export const HOST_LOCK = 0x5755_0002;

export const lock = (query: Query, namespace: number, key: string) =>
  query('SELECT pg_advisory_xact_lock($1::integer, hashtext($2))', [namespace, key]);

const scan = (o: ClaimOptions) => Math.max(64, o.limit * 4);

/**
 * The values of the parameters both PostgreSQL claims end with (`pgClaimSlots` in
 * `claim-sql.ts`): remaining, perHost, scan, limit, owner, until.
 */
export const pgClaimParams = (o: ClaimOptions) => [
  JSON.stringify(o.hostRemaining),
  o.perHost,
  scan(o),
  o.limit,
  o.owner,
  o.now + o.leaseMs,
];

export function upsertSubscription(query: Query, s: NewSubscription, now: number) {
  return query(
    `INSERT INTO websub_subscriptions
       (topic, callback, callback_host, secret, lease_seconds, expires_at, failures, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, 0, $7, $7)
     ON CONFLICT (topic, callback) DO UPDATE SET
       secret = excluded.secret, lease_seconds = excluded.lease_seconds,
       expires_at = excluded.expires_at, failures = 0, updated_at = excluded.updated_at`,
    [s.topic, s.callback, s.callbackHost, s.secret, s.leaseSeconds, s.expiresAt, now],
  );
}

export function insertIntent(query: Query, i: NewIntent, now: number) {
  return query(
    `INSERT INTO websub_intents
       (mode, topic, callback, callback_host, secret, lease_seconds, reason, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [i.mode, i.topic, i.callback, i.callbackHost, i.secret, i.leaseSeconds, i.reason, now],
  );
}

export async function count(query: Query, sql: string, values: unknown[] = []): Promise<number> {
  const { rows } = await query<{ n: number }>(sql, values);
  return rows[0]!.n;
}

/**
 * Subscriptions and pending requests that count against the cap of `intent`'s callback host: those
 * kept under the same host key (the resolved address), and those whose callback has the same name.
 */
export const countHostLoad = (query: Query, intent: NewIntent) => {
  const { slash, colon } = sameNamePrefixes(intent.callback);
  const sameHost = `(callback_host = $1 OR left(callback, length($2)) = $2
      OR left(callback, length($3)) = $3)`;
  return count(
    query,
    `SELECT (SELECT count(*) FROM websub_subscriptions WHERE ${sameHost})
          + (SELECT count(*) FROM websub_intents WHERE ${sameHost} AND mode <> 'denied') AS n`,
    [intent.callbackHost, slash, colon],
  );
};

export const removeSubscription = (query: Query, topic: string, callback: string) =>
  query('DELETE FROM websub_subscriptions WHERE topic = $1 AND callback = $2', [topic, callback]);
