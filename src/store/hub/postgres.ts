import {
  sameNamePrefixes,
  toIntent,
  toSubscription,
  type IntentRow,
  type SubscriptionRow,
} from './rows.js';
import { claimDeliveriesPgSql, claimIntentsPgSql } from './claim-sql.js';
import type { PgDb, Query } from '../internal/postgres-db.js';
import type {
  ClaimOptions,
  ClaimedDelivery,
  NewIntent,
  NewSubscription,
  PendingDelivery,
  TopicState,
  WebSubStore,
} from './types.js';

interface DeliveryRow {
  id: number;
  topic: string;
  callback: string;
  callback_host: string;
  min_version: number;
  attempts: number;
  secret: string | null;
}

/**
 * Namespaces of the transaction-scoped advisory locks (`pg_advisory_xact_lock(namespace,
 * hashtext(key))`) that make a read-then-write of the hub apply one at a time per key, across
 * instances, as SQLite's single writer does: a topic's announcement, a callback host's
 * admission.
 */
const TOPIC_LOCK = 0x5755_0001;
const HOST_LOCK = 0x5755_0002;

const lock = (query: Query, namespace: number, key: string) =>
  query('SELECT pg_advisory_xact_lock($1::integer, hashtext($2))', [namespace, key]);

const scan = (o: ClaimOptions) => Math.max(64, o.limit * 4);

function upsertSubscription(query: Query, s: NewSubscription, now: number) {
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

function insertIntent(query: Query, i: NewIntent, now: number) {
  return query(
    `INSERT INTO websub_intents
       (mode, topic, callback, callback_host, secret, lease_seconds, reason, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [i.mode, i.topic, i.callback, i.callbackHost, i.secret, i.leaseSeconds, i.reason, now],
  );
}

async function count(query: Query, sql: string, values: unknown[] = []): Promise<number> {
  const { rows } = await query<{ n: number }>(sql, values);
  return rows[0]!.n;
}

/**
 * Subscriptions and pending requests that count against the cap of `intent`'s callback host: those
 * kept under the same host key (the resolved address), and those whose callback has the same name.
 */
const hostLoad = (query: Query, intent: NewIntent) => {
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

const removeSubscription = (query: Query, topic: string, callback: string) =>
  query('DELETE FROM websub_subscriptions WHERE topic = $1 AND callback = $2', [topic, callback]);

/** Queues (or merges into a pending one) a delivery for every active subscriber of `topic`. */
async function enqueueDeliveries(query: Query, topic: string, version: number, now: number) {
  const { rowCount } = await query(
    `INSERT INTO websub_deliveries AS d (topic, callback, callback_host, min_version, attempts, due_at)
     SELECT topic, callback, callback_host, $2::bigint, 0, $3::bigint FROM websub_subscriptions
     WHERE topic = $1 AND expires_at > $3
     ON CONFLICT (topic, callback) DO UPDATE SET
       min_version = greatest(d.min_version, excluded.min_version)`,
    [topic, version, now],
  );
  return rowCount ?? 0;
}

/**
 * Records 2xx answers (see `WebSubStore.deliveriesSucceeded`) in a few set-based statements,
 * whatever the batch's size. Without waiting for the commit to reach the disk
 * (`synchronous_commit = off` for this transaction only): a server crash may forget the last
 * successes, and those deliveries are sent again, which WebSub's at-least-once delivery allows;
 * it spares every batch of answers a WAL flush.
 */
async function succeeded(
  query: Query,
  done: readonly { delivery: ClaimedDelivery; sentVersion: number }[],
  owner: string,
  now: number,
) {
  await query("SELECT set_config('synchronous_commit', 'off', true)");
  const removed = await query<{ id: number }>(
    `DELETE FROM websub_deliveries w USING unnest($1::bigint[], $2::bigint[]) d(id, sent)
     WHERE w.id = d.id AND w.claimed_by = $3 AND w.min_version <= d.sent
     RETURNING w.id`,
    [done.map((d) => d.delivery.id), done.map((d) => d.sentVersion), owner],
  );
  const gone = new Set(removed.rows.map((r) => r.id));
  const again = done.filter((d) => !gone.has(d.delivery.id)).map((d) => d.delivery.id);
  if (again.length > 0) {
    // Newer content was queued while these were in flight: send it next.
    await query(
      `UPDATE websub_deliveries SET claimed_by = NULL, claimed_until = NULL, attempts = 0,
         due_at = $1 WHERE id = ANY($2::bigint[]) AND claimed_by = $3`,
      [now, again, owner],
    );
  }
  await query(
    `UPDATE websub_subscriptions s SET failures = 0
     FROM unnest($1::text[], $2::text[]) d(topic, callback)
     WHERE s.topic = d.topic AND s.callback = d.callback AND s.failures <> 0`,
    [done.map((d) => d.delivery.topic), done.map((d) => d.delivery.callback)],
  );
}

/**
 * The PostgreSQL implementation of the WebSub store, on the same tables as SQLite's and with
 * the same semantics. Claims are single statements with `FOR UPDATE SKIP LOCKED` (see
 * `websub-claim-sql.ts`); every other change that reads before it writes is one READ COMMITTED
 * transaction whose rows are locked by its own statements (a claimed row by its owner's update,
 * a subscription's failure count by its increment), or, where it reads rows it does not write (a
 * topic's recorded version, a host's number of subscriptions), under an advisory lock of that
 * topic or host.
 */
export function createPostgresWebSubStore(db: PgDb): WebSubStore {
  return {
    addIntent: (intent, now, maxPerHost) =>
      db.transaction(async (query) => {
        if (intent.mode !== 'denied') {
          // The cap counts by host key and by name: lock both, always in the same order.
          const keys = [intent.callbackHost, new URL(intent.callback).hostname];
          for (const key of [...new Set(keys)].sort()) await lock(query, HOST_LOCK, key);
          const renewal = await query(
            'SELECT 1 FROM websub_subscriptions WHERE topic = $1 AND callback = $2',
            [intent.topic, intent.callback],
          );
          if (renewal.rowCount === 0 && (await hostLoad(query, intent)) >= maxPerHost) return false;
        }
        await insertIntent(query, intent, now);
        return true;
      }),

    async claimIntents(o) {
      const { rows } = await db.query<IntentRow>(claimIntentsPgSql, [
        o.now,
        JSON.stringify(o.hostRemaining),
        o.perHost,
        scan(o),
        o.limit,
        o.owner,
        o.now + o.leaseMs,
      ]);
      return rows.map(toIntent);
    },

    completeIntent: (intent, outcome, now) =>
      db.transaction(async (query) => {
        const gone = await query('DELETE FROM websub_intents WHERE id = $1', [intent.id]);
        if (gone.rowCount === 0) return; // completed by another worker whose claim we outlived
        if (outcome.kind === 'activate') {
          const leaseSeconds = intent.leaseSeconds ?? 0;
          await upsertSubscription(
            query,
            { ...intent, leaseSeconds, expiresAt: outcome.verifiedAt + leaseSeconds * 1000 },
            now,
          );
        } else if (outcome.kind === 'remove') {
          await removeSubscription(query, intent.topic, intent.callback);
        }
      }),

    async putSubscription(subscription, now) {
      await upsertSubscription(db.query, subscription, now);
    },

    async getSubscription(topic, callback) {
      const { rows } = await db.query<SubscriptionRow>(
        'SELECT * FROM websub_subscriptions WHERE topic = $1 AND callback = $2',
        [topic, callback],
      );
      return rows[0] ? toSubscription(rows[0]) : null;
    },

    countSubscriptions: () => count(db.query, 'SELECT count(*) AS n FROM websub_subscriptions'),

    async expireSubscriptions(now) {
      const { rowCount } = await db.query(
        'DELETE FROM websub_subscriptions WHERE expires_at <= $1',
        [now],
      );
      return rowCount ?? 0;
    },

    announce: (topic, version, etag, now) =>
      db.transaction(async (query) => {
        await lock(query, TOPIC_LOCK, topic);
        const { rows } = await query<{ version: number; etag: string }>(
          'SELECT version, etag FROM websub_topics WHERE topic = $1',
          [topic],
        );
        const row = rows[0];
        if (row && row.version >= version) return 0;
        await query(
          `INSERT INTO websub_topics (topic, version, etag, updated_at) VALUES ($1, $2, $3, $4)
           ON CONFLICT (topic) DO UPDATE SET
             version = excluded.version, etag = excluded.etag, updated_at = excluded.updated_at`,
          [topic, version, etag, now],
        );
        if (!row || row.etag === etag) return 0;
        return enqueueDeliveries(query, topic, version, now);
      }),

    async claimDeliveries(o) {
      const { rows } = await db.query<DeliveryRow>(claimDeliveriesPgSql, [
        o.now,
        o.maxVersion,
        JSON.stringify(o.hostRemaining),
        o.perHost,
        scan(o),
        o.limit,
        o.owner,
        o.now + o.leaseMs,
      ]);
      return rows.map((r) => ({
        id: r.id,
        topic: r.topic,
        callback: r.callback,
        callbackHost: r.callback_host,
        minVersion: r.min_version,
        attempts: r.attempts,
        secret: r.secret,
      }));
    },

    async deliveriesSucceeded(done, owner, now) {
      if (done.length === 0) return;
      await db.transaction((query) => succeeded(query, done, owner, now));
    },

    async deliveryRetry(d, owner, dueAt) {
      await db.query(
        `UPDATE websub_deliveries SET attempts = attempts + 1, due_at = $1, claimed_by = NULL,
           claimed_until = NULL WHERE id = $2 AND claimed_by = $3`,
        [dueAt, d.id, owner],
      );
    },

    deliveryFailed: (d, owner, maxFailures, reason, now) =>
      db.transaction(async (query) => {
        const held = await query(
          'DELETE FROM websub_deliveries WHERE id = $1 AND claimed_by = $2',
          [d.id, owner],
        );
        if (held.rowCount === 0) return { removed: false, failures: 0 };
        const { rows } = await query<{ failures: number; callback_host: string }>(
          `UPDATE websub_subscriptions SET failures = failures + 1, updated_at = $1
           WHERE topic = $2 AND callback = $3 RETURNING failures, callback_host`,
          [now, d.topic, d.callback],
        );
        const sub = rows[0];
        if (!sub) return { removed: false, failures: 0 };
        if (sub.failures < maxFailures) return { removed: false, failures: sub.failures };
        await removeSubscription(query, d.topic, d.callback);
        await insertIntent(
          query,
          {
            mode: 'denied',
            topic: d.topic,
            callback: d.callback,
            callbackHost: sub.callback_host,
            secret: null,
            leaseSeconds: null,
            reason,
          },
          now,
        );
        return { removed: true, failures: sub.failures };
      }),

    async deliveryGone(d) {
      await removeSubscription(db.query, d.topic, d.callback);
    },

    releaseClaims: (owner) =>
      db.transaction(async (query) => {
        for (const table of ['websub_intents', 'websub_deliveries']) {
          await query(
            `UPDATE ${table} SET claimed_by = NULL, claimed_until = NULL WHERE claimed_by = $1`,
            [owner],
          );
        }
      }),

    async listPendingDeliveries(): Promise<PendingDelivery[]> {
      const { rows } = await db.query<{
        topic: string;
        callback: string;
        min_version: number;
        attempts: number;
        due_at: number;
        claimed_by: string | null;
      }>(
        `SELECT topic, callback, min_version, attempts, due_at, claimed_by
         FROM websub_deliveries ORDER BY id`,
      );
      return rows.map((r) => ({
        topic: r.topic,
        callback: r.callback,
        minVersion: r.min_version,
        attempts: r.attempts,
        dueAt: r.due_at,
        claimedBy: r.claimed_by,
      }));
    },

    async listTopics() {
      // Byte order, as SQLite sorts, whatever the database's collation.
      const { rows } = await db.query<TopicState>(
        'SELECT topic, version, etag FROM websub_topics ORDER BY topic COLLATE "C"',
      );
      return rows;
    },

    countPendingIntents: () => count(db.query, 'SELECT count(*) AS n FROM websub_intents'),
  };
}
