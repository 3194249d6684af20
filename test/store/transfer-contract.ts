/**
 * The transfer part of the Store contract (`store.transfer`): a store copied row by row into an
 * empty store, of the same engine or the other, holds the same data and keeps working. Each
 * engine's test file runs it for the pairs it can open; not a test file itself.
 */
import { isServiceError } from '../../src/platform/errors.js';
import { readFeed } from './changes-contract.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { testBusiness } from '../helpers/fixtures.js';
import { storedRow } from '../helpers/records.js';
import { Business } from '../../src/domain/business.js';
import {
  STORE_NOT_EMPTY,
  type Store,
  type StoredReview,
  type TableRows,
} from '../../src/store/index.js';

const isStoreNotEmpty = (err: unknown): boolean => isServiceError(err, STORE_NOT_EMPTY);

export interface OpenedStore {
  store: Store;
  cleanup(): Promise<void>;
}

const TOPIC = 'https://reviews.example.com/feed.xml';
const NOW = 1_700_000_000_000;
const DAY = 86_400_000;

async function storedReviews(store: Store): Promise<StoredReview[]> {
  const out: StoredReview[] = [];
  await store.transaction((tx) =>
    tx.forEachReview(50, async (page) => {
      out.push(...page);
    }),
  );
  return out.sort((a, b) => (a.id < b.id ? -1 : 1));
}

/** A store with something in every copied table. */
async function seed(store: Store): Promise<Record<'hiddenId' | 'removedId' | 'memberId', string>> {
  const rows = ['a', 'b', 'c', 'd', 'e'].map((k) => storedRow(k));
  rows[1] = { ...rows[1]!, derivedVersion: 1 };
  await store.transaction(async (tx) => {
    await tx.putBusiness(Business.parse(testBusiness()));
    await tx.upsertReviews(rows);
    return tx.bumpVersion('2025-03-04T05:06:07.089Z');
  });
  const hiddenId = rows[2]!.id;
  const at = '2025-03-05T00:00:00.000Z';
  await store.moderation.apply({
    reviewId: hiddenId,
    action: 'hide',
    reason: 'spam',
    actor: 'op',
    at,
  });
  await store.moderation.apply({
    reviewId: rows[3]!.id,
    action: 'hide',
    reason: null,
    actor: 'op',
    at,
  });
  await store.moderation.apply({
    reviewId: rows[3]!.id,
    action: 'unhide',
    reason: 'ok',
    actor: 'op',
    at,
  });
  await store.sessions.secret('mcp-session', 'x'.repeat(40));
  await store.sessions.end('ended-session', NOW + DAY);
  await store.sessions.subscribe('open-session', TOPIC, NOW + DAY);
  await store.sessions.setLogLevel('open-session', 'info', NOW + DAY);
  for (const n of [1, 2, 3]) {
    await store.websub.putSubscription(
      {
        topic: TOPIC,
        callback: `https://sub.example/cb/${n}`,
        callbackHost: 'sub.example',
        secret: n === 1 ? null : `secret-${n}`,
        leaseSeconds: 3600,
        expiresAt: NOW + DAY,
      },
      NOW,
    );
  }
  await store.websub.announce(TOPIC, 1, '"etag-1"', NOW);
  await store.websub.announce(TOPIC, 2, '"etag-2"', NOW);
  await store.websub.addIntent(
    {
      mode: 'subscribe',
      topic: TOPIC,
      callback: 'https://sub.example/cb/new',
      callbackHost: 'sub.example',
      secret: 's3cret',
      leaseSeconds: 7200,
      reason: null,
    },
    NOW,
    1000,
  );
  await store.analyses.put([
    ['k1', '{"a":1}'],
    ['k2', '{"b":2}'],
  ]);
  // A review source's runs: e brought in, then removed at source; a lease held elsewhere.
  await store.sources.acquire('gbp', 'holder', NOW, DAY);
  await store.sources.finish('gbp', 'holder', {
    at: NOW + 1,
    error: null,
    full: true,
    cursor: 'c',
  });
  const listed = (...r: StoredReview[]) => ({
    ids: new Set(r.map((x) => x.id)),
    full: true,
    at,
    dryRun: false,
  });
  await store.sources.reconcile('gbp', listed(rows[0]!, rows[4]!));
  await store.sources.reconcile('gbp', listed(rows[0]!));
  await store.sources.acquire('url:x', 'holder', NOW, DAY);
  return { hiddenId, removedId: rows[4]!.id, memberId: rows[0]!.id };
}

/** Everything a reader of the store interface sees. */
async function view(store: Store) {
  const dataset = await store.readDataset();
  return {
    state: dataset.state,
    business: dataset.business,
    published: [...dataset.reviews].sort(),
    stored: await storedReviews(store),
    hidden: [...(await store.moderation.hiddenIds())].sort(),
    secret: await store.sessions.secret('mcp-session', 'y'.repeat(40)),
    ended: await store.sessions.isEnded('ended-session'),
    subscriptions: await store.sessions.subscriptions('open-session', NOW),
    logLevel: await store.sessions.logLevel('open-session', NOW),
    websub: await Promise.all(
      [1, 2, 3].map((n) => store.websub.getSubscription(TOPIC, `https://sub.example/cb/${n}`)),
    ),
    deliveries: await store.websub.listPendingDeliveries(),
    topics: await store.websub.listTopics(),
    intents: await store.websub.countPendingIntents(),
    analyses: [...(await store.analyses.get(['k1', 'k2', 'k3']))],
    // The feed, its epoch included: cursors stay valid on the copy.
    feed: await readFeed(store),
    sourceRun: await store.sources.get('gbp'),
  };
}

export function describeTransferContract(
  name: string,
  openSource: () => Promise<OpenedStore>,
  openTarget: () => Promise<OpenedStore>,
): void {
  describe(`store transfer ${name}`, () => {
    let source: OpenedStore;
    let target: OpenedStore;
    beforeEach(async () => {
      source = await openSource();
      target = await openTarget();
    });
    afterEach(async () => {
      await source.cleanup();
      await target.cleanup();
    });

    const copy = async (batchSize: number): Promise<Record<string, number>> => {
      let exported: Record<string, number> = {};
      await target.store.transfer.importRows(async (put) => {
        exported = await source.store.transfer.exportRows(async (batch: TableRows) => {
          expect(batch.rows.length).toBeLessThanOrEqual(batchSize);
          await put(batch);
        }, batchSize);
      });
      return exported;
    };

    it('copies every table into an empty store, which then reads the same', async () => {
      const { hiddenId, removedId } = await seed(source.store);
      const exported = await copy(2);
      expect(exported).toMatchObject({
        reviews: 5,
        hidden_reviews: 2,
        moderation_log: 4,
        source_runs: 2,
        source_reviews: 1,
      });
      expect(await target.store.transfer.counts()).toEqual(exported);
      expect(await source.store.transfer.counts()).toEqual(exported);
      const copied = await view(target.store);
      expect(copied).toEqual(await view(source.store));
      expect(copied.secret).toBe('x'.repeat(40));
      expect(copied.hidden).toEqual([hiddenId, removedId].sort());
      expect(copied.published).toHaveLength(3);
      expect(copied.sourceRun).toMatchObject({ lastSuccessAt: NOW + 1, cursor: 'c' });
      // A lease is not copied: the copy's sources are free.
      expect(await target.store.sources.get('url:x')).toMatchObject({
        holder: null,
        lastStartedAt: NOW,
      });
      expect(copied.websub[1]?.secret).toBe('secret-2');
      expect(copied.deliveries).toHaveLength(3);
      expect(await target.store.moderation.log(hiddenId)).toEqual(
        await source.store.moderation.log(hiddenId),
      );
    });

    it('keeps working after the copy: versions, logs and queues continue', async () => {
      const { hiddenId, removedId, memberId } = await seed(source.store);
      await copy(500);
      // The source's record came along: it removes what it brought in, brings back what it removed.
      const again = await target.store.sources.reconcile('gbp', {
        ids: new Set([removedId]),
        full: true,
        at: '2025-04-01T00:00:00.000Z',
        dryRun: true,
      });
      expect(again).toEqual({ removed: [memberId], restored: [removedId], state: null });
      const before = await target.store.state();
      const outcome = await target.store.moderation.apply({
        reviewId: hiddenId,
        action: 'unhide',
        reason: null,
        actor: 'op',
        at: '2025-04-01T00:00:00.000Z',
      });
      expect(outcome).toMatchObject({ status: 'changed', state: { version: before.version + 1 } });
      expect((await target.store.moderation.log(hiddenId)).map((r) => r.action)).toEqual([
        'hide',
        'unhide',
      ]);
      const queued = await target.store.websub.addIntent(
        {
          mode: 'unsubscribe',
          topic: TOPIC,
          callback: 'https://sub.example/cb/1',
          callbackHost: 'sub.example',
          secret: null,
          leaseSeconds: null,
          reason: null,
        },
        NOW,
        1000,
      );
      expect(queued).toBe(true);
      expect(await target.store.websub.countPendingIntents()).toBe(2);
      const claimed = await target.store.websub.claimIntents({
        owner: 'w',
        now: NOW,
        leaseMs: 1000,
        limit: 10,
        perHost: 10,
        hostRemaining: {},
      });
      expect(claimed).toHaveLength(2);
      expect(new Set(claimed.map((c) => c.id)).size).toBe(2);
    });

    it('refuses a target that holds data, and writes nothing', async () => {
      await seed(source.store);
      await target.store.analyses.put([['other', '{}']]);
      const before = await target.store.transfer.counts();
      await expect(copy(500)).rejects.toSatisfy(isStoreNotEmpty);
      await expect(copy(500)).rejects.toThrow(/not empty \(1 text_analyses\)/);
      expect(await target.store.transfer.counts()).toEqual(before);
    });
  });
}
