/**
 * The concurrency part of the Store contract: writers that overlap, on one instance and on two.
 * Run by `describeStoreContract` for each engine; not a test file itself.
 */
import { isServiceError } from '../../src/platform/errors.js';
import { describe, expect, it } from 'vitest';
import { testBusiness } from '../helpers/fixtures.js';
import { storedRow } from '../helpers/records.js';
import { Business } from '../../src/domain/business.js';
import {
  CONCURRENT_CHANGE,
  type Store,
  type StoreTransaction,
  type StoredReview,
} from '../../src/store/index.js';

const isConcurrentChange = (err: unknown): boolean => isServiceError(err, CONCURRENT_CHANGE);

const BUSINESS = Business.parse(testBusiness());

/** A deferred promise: lets a test hold a transaction open while it looks from outside. */
export function gate(): { wait: Promise<void>; open(): void } {
  let open!: () => void;
  const wait = new Promise<void>((resolve) => (open = resolve));
  return { wait, open };
}

export function describeConcurrencyContract(
  getStore: () => Store,
  openAnother: () => Promise<Store>,
): void {
  /** Commits rows and a new version in one transaction. */
  const commit = (rows: StoredReview[], changedAt: string) =>
    getStore().transaction(async (tx) => {
      await tx.upsertReviews(rows);
      return tx.bumpVersion(changedAt);
    });

  const allStored = async (): Promise<StoredReview[]> => {
    const out: StoredReview[] = [];
    await getStore().transaction((tx) =>
      tx.forEachReview(100, async (page) => void out.push(...page)),
    );
    return out;
  };

  describe('concurrent writers', () => {
    it('lets readers, sessions, analyses, rates and the hub work while a transaction is open', async () => {
      const store = getStore();
      const other = await openAnother();
      const before = await store.readDataset();
      const held = gate();
      const inside = gate();
      const tx = store.transaction(async (t) => {
        await t.putBusiness(BUSINESS);
        await t.upsertReviews([storedRow('a')]);
        await t.bumpVersion('2025-03-01T00:00:00.000Z');
        inside.open();
        await held.wait;
      });
      await inside.wait;
      // Each of these would wait for the transaction (which waits for them) if it were blocked.
      for (const s of [store, other]) {
        expect(await s.readDataset()).toEqual(before);
        expect(await s.state()).toEqual(before.state);
        expect(await s.countReviews()).toBe(0);
        await s.sessions.end(`session-${s === store ? 1 : 2}`, 10_000);
        await s.analyses.put([['k', '{}']]);
        expect((await s.rates.take('k', 0, 60_000, 10)).ok).toBe(true);
        await s.websub.putSubscription(
          {
            topic: 'https://reviews.example.com/feed.xml',
            callback: 'https://a.example/cb',
            callbackHost: 'a.example',
            secret: null,
            leaseSeconds: 3600,
            expiresAt: 5_000_000,
          },
          1_000,
        );
        await s.websub.announce('https://reviews.example.com/feed.xml', 1, '"a"', 1_000);
        await s.websub.claimDeliveries({
          owner: 'w',
          now: 1_000,
          leaseMs: 1_000,
          limit: 10,
          perHost: 10,
          hostRemaining: {},
          maxVersion: 1,
        });
      }
      held.open();
      await tx;
      expect((await other.readDataset()).business).toEqual(BUSINESS);
      expect(await other.sessions.isEnded('session-1')).toBe(true);
    });

    it('end two transactions of two instances consistently: each commits whole or fails with ConcurrentChangeError and writes nothing', async () => {
      const store = getStore();
      const other = await openAnother();
      const base = await commit([storedRow('shared')], '2025-01-01T00:00:00.000Z');
      const secondStarted = gate();
      const write = async (tx: StoreTransaction, i: number, key: string) => {
        await tx.upsertReviews([
          storedRow('shared', { reviewBody: `Written by ${key}.` }),
          storedRow(key),
        ]);
        return tx.bumpVersion(`2025-02-0${i + 1}T00:00:00.000Z`);
      };
      // The second starts while the first is open, and writes the same row (an engine may
      // make it wait for the first's commit, or let it commit first).
      const first = store.transaction(async (tx) => {
        await tx.upsertReviews([storedRow('first')]);
        await secondStarted.wait;
        return write(tx, 0, 'first');
      });
      const second = other.transaction(async (tx) => {
        secondStarted.open();
        return write(tx, 1, 'second');
      });
      const outcomes = await Promise.allSettled([first, second]);
      const committed = outcomes.flatMap((o, i) => (o.status === 'fulfilled' ? [i] : []));
      for (const o of outcomes) {
        if (o.status === 'rejected') expect(o.reason).toSatisfy(isConcurrentChange);
      }
      expect(committed.length).toBeGreaterThan(0);
      const state = await store.state();
      expect(state.version).toBe(base.version + committed.length);
      const keys = (await allStored()).map((r) => r.sourceReviewId).sort();
      const expected = ['shared', ...committed.map((i) => (i === 0 ? 'first' : 'second'))];
      expect(keys).toEqual(expected.sort());
      const last = committed.length === 1 ? committed[0]! : null;
      if (last !== null) {
        const shared = (await allStored()).find((r) => r.sourceReviewId === 'shared');
        expect(shared?.sourceRecord.reviewBody).toBe(
          `Written by ${last === 0 ? 'first' : 'second'}.`,
        );
        expect(state.changedAt).toBe(`2025-02-0${last + 1}T00:00:00.000Z`);
      }
    });
  });
}
