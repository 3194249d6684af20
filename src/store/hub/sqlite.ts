import type Database from 'better-sqlite3';
import {
  sameNamePrefixes,
  toIntent,
  toSubscription,
  type IntentRow,
  type SubscriptionRow,
} from './rows.js';
import { claimDeliveriesSql, claimIntentsSql } from './claim-sql.js';
import type {
  ClaimOptions,
  ClaimedDelivery,
  NewIntent,
  NewSubscription,
  PendingDelivery,
  TopicState,
  WebSubStore,
} from './types.js';

type Db = Database.Database;

/** Runs `fn` in one `BEGIN IMMEDIATE` transaction on the writer, after the writes queued before. */
export type WriteRunner = <T>(fn: () => T) => Promise<T>;

interface DeliveryRow {
  id: number;
  topic: string;
  callback: string;
  callback_host: string;
  min_version: number;
  attempts: number;
}

function claimParams(o: ClaimOptions) {
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

function upsertSubscription(writer: Db, s: NewSubscription, now: number): void {
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

function insertIntent(writer: Db, i: NewIntent, now: number): void {
  writer
    .prepare(
      `INSERT INTO websub_intents
         (mode, topic, callback, callback_host, secret, lease_seconds, reason, created_at)
       VALUES (@mode, @topic, @callback, @callbackHost, @secret, @leaseSeconds, @reason, @now)`,
    )
    .run({ ...i, now });
}

/**
 * Subscriptions and pending requests that count against the cap of `intent`'s callback host: those
 * kept under the same host key (the resolved address), and those whose callback has the same name.
 */
function hostLoad(writer: Db, intent: NewIntent): number {
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

function isSubscribed(db: Db, topic: string, callback: string): boolean {
  return (
    db
      .prepare('SELECT 1 FROM websub_subscriptions WHERE topic = ? AND callback = ?')
      .get(topic, callback) !== undefined
  );
}

function enqueueDeliveries(writer: Db, topic: string, version: number, now: number): number {
  return writer
    .prepare(
      `INSERT INTO websub_deliveries (topic, callback, callback_host, min_version, attempts, due_at)
       SELECT topic, callback, callback_host, @version, 0, @now FROM websub_subscriptions
       WHERE topic = @topic AND expires_at > @now
       ON CONFLICT (topic, callback) DO UPDATE SET
         min_version = max(min_version, excluded.min_version)`,
    )
    .run({ topic, version, now }).changes;
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
  const secretOf = writer.prepare(
    'SELECT secret FROM websub_subscriptions WHERE topic = ? AND callback = ?',
  );
  return {
    addIntent: (intent, now, maxPerHost) =>
      requestWrite(() => {
        const renewal =
          intent.mode !== 'denied' && isSubscribed(writer, intent.topic, intent.callback);
        if (intent.mode !== 'denied' && !renewal && hostLoad(writer, intent) >= maxPerHost)
          return false;
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
          writer
            .prepare('DELETE FROM websub_subscriptions WHERE topic = ? AND callback = ?')
            .run(intent.topic, intent.callback);
        }
      }),

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

    announce: (topic, version, etag, now) =>
      write(() => {
        const row = writer
          .prepare('SELECT version, etag FROM websub_topics WHERE topic = ?')
          .get(topic) as { version: number; etag: string } | undefined;
        if (row && row.version >= version) return 0;
        writer
          .prepare(
            `INSERT INTO websub_topics (topic, version, etag, updated_at) VALUES (?, ?, ?, ?)
             ON CONFLICT (topic) DO UPDATE SET
               version = excluded.version, etag = excluded.etag, updated_at = excluded.updated_at`,
          )
          .run(topic, version, etag, now);
        if (!row || row.etag === etag) return 0;
        return enqueueDeliveries(writer, topic, version, now);
      }),

    claimDeliveries: (options) =>
      write(() => {
        const rows = writer
          .prepare(claimDeliveriesSql)
          .all({ ...claimParams(options), maxVersion: options.maxVersion }) as DeliveryRow[];
        return rows.map((r): ClaimedDelivery => ({
          id: r.id,
          topic: r.topic,
          callback: r.callback,
          callbackHost: r.callback_host,
          minVersion: r.min_version,
          attempts: r.attempts,
          secret:
            (secretOf.get(r.topic, r.callback) as { secret: string | null } | undefined)?.secret ??
            null,
        }));
      }),

    deliveriesSucceeded: (done, owner, now) =>
      write(() => {
        const remove = writer.prepare(
          'DELETE FROM websub_deliveries WHERE id = ? AND claimed_by = ? AND min_version <= ?',
        );
        // Newer content was queued while this one was in flight: send it next.
        const again = writer.prepare(
          `UPDATE websub_deliveries SET claimed_by = NULL, claimed_until = NULL, attempts = 0,
             due_at = ? WHERE id = ? AND claimed_by = ?`,
        );
        const streak = writer.prepare(
          `UPDATE websub_subscriptions SET failures = 0
           WHERE topic = ? AND callback = ? AND failures <> 0`,
        );
        for (const { delivery: d, sentVersion } of done) {
          if (remove.run(d.id, owner, sentVersion).changes === 0) again.run(now, d.id, owner);
          streak.run(d.topic, d.callback);
        }
      }),

    deliveryRetry: (d, owner, dueAt) =>
      write(() => {
        writer
          .prepare(
            `UPDATE websub_deliveries SET attempts = attempts + 1, due_at = ?, claimed_by = NULL,
               claimed_until = NULL WHERE id = ? AND claimed_by = ?`,
          )
          .run(dueAt, d.id, owner);
      }),

    deliveryFailed: (d, owner, maxFailures, reason, now) =>
      write(() => {
        const held = writer
          .prepare('DELETE FROM websub_deliveries WHERE id = ? AND claimed_by = ?')
          .run(d.id, owner);
        if (held.changes === 0) return { removed: false, failures: 0 };
        const sub = writer
          .prepare(
            `UPDATE websub_subscriptions SET failures = failures + 1, updated_at = ?
             WHERE topic = ? AND callback = ? RETURNING failures, callback_host`,
          )
          .get(now, d.topic, d.callback) as { failures: number; callback_host: string } | undefined;
        if (!sub) return { removed: false, failures: 0 };
        if (sub.failures < maxFailures) return { removed: false, failures: sub.failures };
        writer
          .prepare('DELETE FROM websub_subscriptions WHERE topic = ? AND callback = ?')
          .run(d.topic, d.callback);
        insertIntent(
          writer,
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

    deliveryGone: (d) =>
      write(() => {
        writer
          .prepare('DELETE FROM websub_subscriptions WHERE topic = ? AND callback = ?')
          .run(d.topic, d.callback);
      }),

    releaseClaims: (owner) =>
      write(() => {
        for (const table of ['websub_intents', 'websub_deliveries']) {
          writer
            .prepare(
              `UPDATE ${table} SET claimed_by = NULL, claimed_until = NULL WHERE claimed_by = ?`,
            )
            .run(owner);
        }
      }),

    async listPendingDeliveries(): Promise<PendingDelivery[]> {
      const rows = reader
        .prepare(
          `SELECT topic, callback, min_version, attempts, due_at, claimed_by
           FROM websub_deliveries ORDER BY id`,
        )
        .all() as {
        topic: string;
        callback: string;
        min_version: number;
        attempts: number;
        due_at: number;
        claimed_by: string | null;
      }[];
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
      return reader
        .prepare('SELECT topic, version, etag FROM websub_topics ORDER BY topic')
        .all() as TopicState[];
    },

    async countPendingIntents() {
      return reader.prepare('SELECT count(*) FROM websub_intents').pluck().get() as number;
    },
  };
}
