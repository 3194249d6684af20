/** The SQLite engine's delivery queue of the hub: announcements, claims and their outcomes. */
import { claimDeliveriesSql } from './claim-sql.js';
import { dropsSubscription } from './policy.js';
import { denialOf, toClaimedDelivery, type DeliveryRow } from './rows.js';
import { claimParams, insertIntent, removeSubscription, type Db } from './sqlite-statements.js';
import type { WebSubStore } from './types.js';
import type { WriteRunner } from '../internal/sqlite-staged.js';

/** Queues (or merges into a pending one) a delivery for every active subscriber of `topic`. */
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

/** Announcements, the deliveries they queue, and the claims on them. */
function deliveryClaims(
  writer: Db,
  write: WriteRunner,
): Pick<WebSubStore, 'announce' | 'claimDeliveries' | 'releaseClaims'> {
  const secretOf = writer.prepare(
    'SELECT secret FROM websub_subscriptions WHERE topic = ? AND callback = ?',
  );
  return {
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
        return rows.map((r) =>
          toClaimedDelivery(
            r,
            (secretOf.get(r.topic, r.callback) as { secret: string | null } | undefined)?.secret ??
              null,
          ),
        );
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
  };
}

/** What became of claimed deliveries: sent, to be retried, failed for good, or gone (410). */
function deliveryOutcomes(
  writer: Db,
  write: WriteRunner,
): Pick<WebSubStore, 'deliveriesSucceeded' | 'deliveryRetry' | 'deliveryFailed' | 'deliveryGone'> {
  return {
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
        if (!dropsSubscription(sub.failures, maxFailures))
          return { removed: false, failures: sub.failures };
        removeSubscription(writer, d.topic, d.callback);
        insertIntent(writer, denialOf(d, sub.callback_host, reason), now);
        return { removed: true, failures: sub.failures };
      }),

    deliveryGone: (d) => write(() => removeSubscription(writer, d.topic, d.callback)),
  };
}

/** The hub's delivery queue: announcements, claims and their outcomes. */
export function deliveryQueue(writer: Db, write: WriteRunner) {
  return { ...deliveryClaims(writer, write), ...deliveryOutcomes(writer, write) };
}
