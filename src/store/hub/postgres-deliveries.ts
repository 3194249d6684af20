/** The PostgreSQL engine's delivery queue of the hub: announcements, claims and their outcomes. */
import type { PgDb, Query } from '../internal/postgres-db.js';
import { claimDeliveriesPgSql } from './claim-sql.js';
import { dropsSubscription } from './policy.js';
import {
  insertIntent,
  lock,
  pgClaimParams,
  removeSubscription,
  TOPIC_LOCK,
} from './postgres-statements.js';
import { denialOf, toClaimedDelivery, type DeliveryRow } from './rows.js';
import type { ClaimedDelivery, WebSubStore } from './types.js';

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

/** Announcements, the deliveries they queue, and the claims on them. */
function deliveryClaims(
  db: PgDb,
): Pick<WebSubStore, 'announce' | 'claimDeliveries' | 'releaseClaims'> {
  return {
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
      const { rows } = await db.query<DeliveryRow & { secret: string | null }>(
        claimDeliveriesPgSql,
        [o.now, o.maxVersion, ...pgClaimParams(o)],
      );
      return rows.map((r) => toClaimedDelivery(r, r.secret));
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
  };
}

/** What became of claimed deliveries: sent, to be retried, failed for good, or gone (410). */
function deliveryOutcomes(
  db: PgDb,
): Pick<WebSubStore, 'deliveriesSucceeded' | 'deliveryRetry' | 'deliveryFailed' | 'deliveryGone'> {
  return {
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
        if (!dropsSubscription(sub.failures, maxFailures))
          return { removed: false, failures: sub.failures };
        await removeSubscription(query, d.topic, d.callback);
        await insertIntent(query, denialOf(d, sub.callback_host, reason), now);
        return { removed: true, failures: sub.failures };
      }),

    async deliveryGone(d) {
      await removeSubscription(db.query, d.topic, d.callback);
    },
  };
}

/** The hub's delivery queue: announcements, claims and their outcomes. */
export function deliveryQueue(db: PgDb) {
  return { ...deliveryClaims(db), ...deliveryOutcomes(db) };
}
