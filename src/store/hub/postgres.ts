/**
 * The PostgreSQL engine of the hub's store: verification requests, subscriptions and the
 * listings here, the delivery queue in `postgres-deliveries.ts`, the statements in
 * `postgres-statements.ts`.
 */
import type { PgDb } from '../internal/postgres-db.js';
import { claimIntentsPgSql } from './claim-sql.js';
import { admitsIntent, needsHostLoad } from './policy.js';
import { deliveryQueue } from './postgres-deliveries.js';
import {
  count,
  countHostLoad,
  HOST_LOCK,
  insertIntent,
  lock,
  pgClaimParams,
  removeSubscription,
  upsertSubscription,
} from './postgres-statements.js';
import {
  toIntent,
  toPendingDelivery,
  toSubscription,
  type IntentRow,
  type PendingDeliveryRow,
  type SubscriptionRow,
} from './rows.js';
import type { PendingDelivery, TopicState, WebSubStore } from './types.js';

/** Verification requests: queued under the host caps of `policy.ts`, claimed, completed. */
function intentQueue(db: PgDb): Pick<WebSubStore, 'addIntent' | 'claimIntents' | 'completeIntent'> {
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
          const request = { mode: intent.mode, renewal: renewal.rowCount !== 0 };
          if (needsHostLoad(request)) {
            const hostLoad = await countHostLoad(query, intent);
            if (!admitsIntent({ ...request, hostLoad }, maxPerHost)) return false;
          }
        }
        await insertIntent(query, intent, now);
        return true;
      }),

    async claimIntents(o) {
      const { rows } = await db.query<IntentRow>(claimIntentsPgSql, [o.now, ...pgClaimParams(o)]);
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
  };
}

/** Active subscriptions: written, read, counted, expired. */
function subscriptions(
  db: PgDb,
): Pick<
  WebSubStore,
  'putSubscription' | 'getSubscription' | 'countSubscriptions' | 'expireSubscriptions'
> {
  return {
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
  };
}

/** What an operator's tools and the tests read: the queues and the topics' recorded versions. */
function listings(
  db: PgDb,
): Pick<
  WebSubStore,
  'listPendingDeliveries' | 'listTopics' | 'countPendingIntents' | 'countPendingDeliveries'
> {
  return {
    async listPendingDeliveries(): Promise<PendingDelivery[]> {
      const { rows } = await db.query<PendingDeliveryRow>(
        `SELECT topic, callback, min_version, attempts, due_at, claimed_by
         FROM websub_deliveries ORDER BY id`,
      );
      return rows.map(toPendingDelivery);
    },

    async listTopics() {
      // Byte order, as SQLite sorts, whatever the database's collation.
      const { rows } = await db.query<TopicState>(
        'SELECT topic, version, etag FROM websub_topics ORDER BY topic COLLATE "C"',
      );
      return rows;
    },

    countPendingIntents: () => count(db.query, 'SELECT count(*) AS n FROM websub_intents'),
    countPendingDeliveries: () => count(db.query, 'SELECT count(*) AS n FROM websub_deliveries'),
  };
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
    ...intentQueue(db),
    ...subscriptions(db),
    ...deliveryQueue(db),
    ...listings(db),
  };
}
