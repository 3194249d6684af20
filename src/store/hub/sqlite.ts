/**
 * The SQLite engine of the hub's store: verification requests, subscriptions and the listings
 * here, the delivery queue in `sqlite-deliveries.ts`, the statements in `sqlite-statements.ts`.
 */
import { claimIntentsSql } from './claim-sql.js';
import { admitsIntent, needsHostLoad } from './policy.js';
import {
  toIntent,
  toPendingDelivery,
  toSubscription,
  type IntentRow,
  type PendingDeliveryRow,
  type SubscriptionRow,
} from './rows.js';
import { deliveryQueue } from './sqlite-deliveries.js';
import {
  claimParams,
  countHostLoad,
  insertIntent,
  isSubscribed,
  removeSubscription,
  upsertSubscription,
  type Db,
} from './sqlite-statements.js';
import type { PendingDelivery, TopicState, WebSubStore } from './types.js';
import type { WriteRunner } from '../internal/sqlite-staged.js';

/** Verification requests: queued under the host caps of `policy.ts`, claimed, completed. */
function intentQueue(
  writer: Db,
  write: WriteRunner,
  requestWrite: WriteRunner,
): Pick<WebSubStore, 'addIntent' | 'claimIntents' | 'completeIntent'> {
  return {
    addIntent: (intent, now, maxPerHost) =>
      requestWrite(() => {
        const renewal =
          intent.mode !== 'denied' && isSubscribed(writer, intent.topic, intent.callback);
        const request = { mode: intent.mode, renewal };
        if (needsHostLoad(request)) {
          const hostLoad = countHostLoad(writer, intent);
          if (!admitsIntent({ ...request, hostLoad }, maxPerHost)) return false;
        }
        insertIntent(writer, intent, now);
        return true;
      }),

    claimIntents: (options) =>
      write(() =>
        (writer.prepare(claimIntentsSql).all(claimParams(options)) as IntentRow[]).map(toIntent),
      ),

    completeIntent: (intent, outcome, now) =>
      write(() => {
        const gone = writer.prepare('DELETE FROM websub_intents WHERE id = ?').run(intent.id);
        if (gone.changes === 0) return; // completed by another worker whose claim we outlived
        if (outcome.kind === 'activate') {
          const leaseSeconds = intent.leaseSeconds ?? 0;
          upsertSubscription(
            writer,
            { ...intent, leaseSeconds, expiresAt: outcome.verifiedAt + leaseSeconds * 1000 },
            now,
          );
        } else if (outcome.kind === 'remove') {
          removeSubscription(writer, intent.topic, intent.callback);
        }
      }),
  };
}

/** Active subscriptions: written, read, counted, expired. */
function subscriptions(
  reader: Db,
  writer: Db,
  write: WriteRunner,
): Pick<
  WebSubStore,
  'putSubscription' | 'getSubscription' | 'countSubscriptions' | 'expireSubscriptions'
> {
  return {
    putSubscription: (subscription, now) =>
      write(() => upsertSubscription(writer, subscription, now)),

    async getSubscription(topic, callback) {
      const row = reader
        .prepare('SELECT * FROM websub_subscriptions WHERE topic = ? AND callback = ?')
        .get(topic, callback) as SubscriptionRow | undefined;
      return row ? toSubscription(row) : null;
    },

    async countSubscriptions() {
      return reader.prepare('SELECT count(*) FROM websub_subscriptions').pluck().get() as number;
    },

    expireSubscriptions: (now) =>
      write(
        () =>
          writer.prepare('DELETE FROM websub_subscriptions WHERE expires_at <= ?').run(now).changes,
      ),
  };
}

/** What an operator's tools and the tests read: the queues and the topics' recorded versions. */
function listings(
  reader: Db,
): Pick<
  WebSubStore,
  'listPendingDeliveries' | 'listTopics' | 'countPendingIntents' | 'countPendingDeliveries'
> {
  return {
    async listPendingDeliveries(): Promise<PendingDelivery[]> {
      const rows = reader
        .prepare(
          `SELECT topic, callback, min_version, attempts, due_at, claimed_by
           FROM websub_deliveries ORDER BY id`,
        )
        .all() as PendingDeliveryRow[];
      return rows.map(toPendingDelivery);
    },

    async listTopics() {
      return reader
        .prepare('SELECT topic, version, etag FROM websub_topics ORDER BY topic')
        .all() as TopicState[];
    },

    async countPendingIntents() {
      return reader.prepare('SELECT count(*) FROM websub_intents').pluck().get() as number;
    },

    async countPendingDeliveries() {
      return reader.prepare('SELECT count(*) FROM websub_deliveries').pluck().get() as number;
    },
  };
}

/**
 * The SQLite implementation of the WebSub store. Writes run on the store's single writer
 * connection through `write` (so they never interleave with an import's transaction); reads use
 * the reader connection. Claims are one `UPDATE ... RETURNING` inside a `BEGIN IMMEDIATE`
 * transaction, which holds the database's write lock: two processes can never claim one row.
 */
export function createSqliteWebSubStore(
  reader: Db,
  writer: Db,
  write: WriteRunner,
  /** The writes made for a request (`addIntent`), which wait less for the lock. */
  requestWrite: WriteRunner = write,
): WebSubStore {
  return {
    ...intentQueue(writer, write, requestWrite),
    ...subscriptions(reader, writer, write),
    ...deliveryQueue(writer, write),
    ...listings(reader),
  };
}
