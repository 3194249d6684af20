/**
 * The behaviour every `Store` implementation promises, as a Vitest suite that each engine's test
 * file runs against its own store (`describeStoreContract('SQLite', open)`). It tests only what
 * the interface in `types.ts` promises, never an engine's specifics. Not a test file itself.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { testBusiness } from '../helpers/fixtures.js';
import { storedRow } from '../helpers/records.js';
import { Business } from '../../src/domain/business.js';
import { compareKeys, sortKeyOf } from '../../src/domain/order.js';
import type { Review } from '../../src/domain/review.js';
import { reviewKey, type Store, type StoredReview } from '../../src/store/index.js';
import { describeChangesContract } from './changes-contract.js';
import { describeConcurrencyContract, gate } from './concurrency-contract.js';
import { describeModerationContract } from './moderation-contract.js';
import { describeSourcesContract } from './sources-contract.js';
import { describeWatchContract } from './watch-contract.js';
import { describeWebSubContract } from './websub-contract.js';

export interface StoreFixture {
  /** A new, empty store. */
  store: Store;
  /** Closes the store (and any other instance opened) and deletes its data. */
  cleanup(): Promise<void>;
  /** Opens another instance on the same database, as a second process would; `cleanup` closes it. */
  openAnother(): Promise<Store>;
}

const BUSINESS = Business.parse(testBusiness());
const RENAMED = Business.parse({ ...testBusiness(), name: 'Renamed Motors' });

const sortById = (rows: StoredReview[]): StoredReview[] =>
  [...rows].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));

export interface ContractOptions {
  /**
   * Whether the engine tells of committed changes (`watch`): its tests then run, and a store
   * without it fails; otherwise the store must not offer `watch` (its readers poll).
   */
  watches: boolean;
}

export function describeStoreContract(
  name: string,
  open: () => Promise<StoreFixture>,
  options: ContractOptions,
): void {
  describe(`the ${name} store (Store contract)`, () => {
    let fixture: StoreFixture;
    let store: Store;

    beforeEach(async () => {
      fixture = await open();
      store = fixture.store;
    });
    afterEach(async () => {
      await fixture.cleanup();
    });

    /** Commits rows (and optionally a business) and a new version in one transaction. */
    async function commit(
      rows: StoredReview[],
      changedAt = '2025-01-01T00:00:00.000Z',
      business?: Business,
    ) {
      return store.transaction(async (tx) => {
        if (business) await tx.putBusiness(business);
        await tx.upsertReviews(rows);
        return tx.bumpVersion(changedAt);
      });
    }

    async function allStored(): Promise<StoredReview[]> {
      const out: StoredReview[] = [];
      await store.transaction((tx) =>
        tx.forEachReview(100, async (page) => {
          out.push(...page);
        }),
      );
      return sortById(out);
    }

    /** The dataset with its reviews sorted (the store returns them in no particular order). */
    async function sortedDataset() {
      const dataset = await store.readDataset();
      return { ...dataset, reviews: [...dataset.reviews].sort() };
    }

    describe('data version and dataset', () => {
      it('starts empty, with one consistent state', async () => {
        const state = await store.state();
        expect(Number.isInteger(state.version)).toBe(true);
        expect(Number.isNaN(Date.parse(state.changedAt))).toBe(false);
        expect(await store.readDataset()).toEqual({ state, business: null, reviews: [] });
        expect(await store.countReviews()).toBe(0);
      });

      it('moves the version forward at each commit that bumps it, with its time', async () => {
        const v0 = (await store.state()).version;
        const s1 = await commit([storedRow('a')], '2025-02-01T10:00:00.000Z');
        expect(s1.version).toBeGreaterThan(v0);
        expect(s1.changedAt).toBe('2025-02-01T10:00:00.000Z');
        expect(await store.state()).toEqual(s1);
        const s2 = await commit([storedRow('b')], '2025-02-02T10:00:00.000Z');
        expect(s2.version).toBeGreaterThan(s1.version);
        expect(await store.state()).toEqual(s2);
        expect((await store.readDataset()).state).toEqual(s2);
      });

      it('leaves the version alone for a transaction that changes nothing', async () => {
        const s1 = await commit([storedRow('a')]);
        await store.transaction(async (tx) => {
          await tx.getBusiness();
          await tx.getReviews([{ source: 'google', sourceReviewId: 'a' }]);
        });
        expect(await store.state()).toEqual(s1);
      });

      it('reads the published data in published order, one review at a time, with its count and bytes', async () => {
        // Newest local date first, then newest datePublished, then the greater id; bodies with
        // characters of two to four UTF-8 bytes count in bytes, not characters.
        const rows = [
          storedRow('old', { datePublished: '2024-12-31T09:00:00.000Z' }),
          storedRow('tie-1', {
            datePublished: '2025-01-05T10:00:00.000Z',
            reviewBody: 'Très bien — 5★',
          }),
          storedRow('tie-2', {
            datePublished: '2025-01-05T10:00:00.000Z',
            reviewBody: 'Emoji 🚗🚗',
          }),
          storedRow('tie-3', { datePublished: '2025-01-05T10:00:00.000Z' }),
          storedRow('later', { datePublished: '2025-01-05T18:00:00.000Z' }),
          storedRow('new', { datePublished: '2025-02-01T08:00:00.000Z' }),
        ];
        const state = await commit(rows, '2025-02-02T00:00:00.000Z', BUSINESS);
        const events: unknown[] = [];
        await store.readPublished({
          begin: (head) => events.push(head),
          review: (json) => events.push(json),
          removal: (r) => events.push(r),
        });
        const review = (r: StoredReview) => JSON.parse(r.publicJson) as Review;
        const expected = [...rows].sort((a, b) =>
          compareKeys(sortKeyOf(review(a)), sortKeyOf(review(b))),
        );
        expect(expected.map((r) => r.sourceReviewId).slice(0, 2)).toEqual(['new', 'later']);
        expect(expected.at(-1)!.sourceReviewId).toBe('old');
        expect(events).toEqual([
          {
            state,
            business: BUSINESS,
            count: rows.length,
            bytes: rows.reduce((n, r) => n + Buffer.byteLength(r.publicJson), 0),
            feed: {
              epoch: expect.stringMatching(/^[0-9a-f]{16}$/) as unknown,
              lastSeq: rows.length,
            },
          },
          ...expected.map((r) => r.publicJson),
        ]);
      });

      it('reads an empty store as a head with no reviews', async () => {
        const events: unknown[] = [];
        await store.readPublished({
          begin: (h) => events.push(h),
          review: (j) => events.push(j),
          removal: (r) => events.push(r),
        });
        expect(events).toEqual([
          {
            state: await store.state(),
            business: null,
            count: 0,
            bytes: 0,
            feed: { epoch: expect.stringMatching(/^[0-9a-f]{16}$/) as unknown, lastSeq: 0 },
          },
        ]);
      });

      it('shows nothing of a transaction to readers until it commits, then all of it', async () => {
        const before = await store.readDataset();
        const held = gate();
        const looked = gate();
        const tx = store.transaction(async (t) => {
          await t.putBusiness(BUSINESS);
          await t.upsertReviews([storedRow('a'), storedRow('b')]);
          const state = await t.bumpVersion('2025-03-01T00:00:00.000Z');
          looked.open();
          await held.wait;
          return state;
        });
        await looked.wait;
        const inside = await store.readDataset();
        const insideCount = await store.countReviews();
        expect(await store.state()).toEqual(before.state);
        held.open();
        const committed = await tx;
        expect(inside).toEqual(before);
        expect(insideCount).toBe(0);
        const after = await store.readDataset();
        expect(after.state).toEqual(committed);
        expect(after.business).toEqual(BUSINESS);
        expect(after.reviews.sort()).toEqual(
          [storedRow('a').publicJson, storedRow('b').publicJson].sort(),
        );
      });

      it('reads the dataset as the public JSON of every review and the business as stored', async () => {
        const rows = [storedRow('a'), storedRow('b', {}, 'yelp'), storedRow('c', { name: 'T' })];
        const state = await commit(rows, '2025-01-05T00:00:00.000Z', BUSINESS);
        const dataset = await store.readDataset();
        expect(dataset.state).toEqual(state);
        expect(dataset.business).toEqual(BUSINESS);
        expect([...dataset.reviews].sort()).toEqual(rows.map((r) => r.publicJson).sort());
        expect(await store.countReviews()).toBe(3);
      });

      it('returns what the transaction function returns', async () => {
        expect(await store.transaction(async () => 42)).toBe(42);
      });
    });

    describeConcurrencyContract(
      () => store,
      () => fixture.openAnother(),
    );

    describe('rollback', () => {
      it('rolls back reviews, business and version when the transaction throws, and rethrows', async () => {
        const base = await commit([storedRow('a'), storedRow('b')], undefined, BUSINESS);
        const before = await sortedDataset();
        const storedBefore = await allStored();
        const boom = new Error('boom');
        await expect(
          store.transaction(async (tx) => {
            await tx.putBusiness(RENAMED);
            await tx.upsertReviews([storedRow('a', { reviewBody: 'Edited.' }), storedRow('c')]);
            expect(await tx.pruneReviews(['google'], new Set())).toBe(3);
            await tx.bumpVersion('2030-01-01T00:00:00.000Z');
            throw boom;
          }),
        ).rejects.toBe(boom);
        expect(await store.state()).toEqual(base);
        expect(await sortedDataset()).toEqual(before);
        expect(await allStored()).toEqual(storedBefore);
        expect(await store.countReviews()).toBe(2);
      });

      it('stays usable after a rollback, and a later commit holds only its own writes', async () => {
        await expect(
          store.transaction(async (tx) => {
            await tx.upsertReviews([storedRow('lost')]);
            throw new Error('no');
          }),
        ).rejects.toThrow('no');
        const state = await commit([storedRow('kept')]);
        expect(await store.state()).toEqual(state);
        expect((await allStored()).map((r) => r.sourceReviewId)).toEqual(['kept']);
      });

      it('keeps what other writers wrote meanwhile when one transaction rolls back', async () => {
        const held = gate();
        const failing = store.transaction(async (tx) => {
          await tx.upsertReviews([storedRow('lost')]);
          await held.wait;
          throw new Error('rolled back');
        });
        // Writes started while the transaction is open, not awaited until it has ended.
        const ended = store.sessions.end('session-1', 10_000);
        const analysed = store.analyses.put([['k', '{"a":1}']]);
        const committed = commit([storedRow('kept')]);
        held.open();
        await expect(failing).rejects.toThrow('rolled back');
        await Promise.all([ended, analysed, committed]);
        expect(await store.sessions.isEnded('session-1')).toBe(true);
        expect(await store.analyses.get(['k'])).toEqual(new Map([['k', '{"a":1}']]));
        expect((await allStored()).map((r) => r.sourceReviewId)).toEqual(['kept']);
      });
    });

    describe('reviews', () => {
      it('upserts by (source, sourceReviewId) and reads rows back as written', async () => {
        const google = storedRow('1');
        const yelp = storedRow('1', { reviewBody: 'Other source.' }, 'yelp');
        await commit([google, yelp]);
        const edited = storedRow('1', {
          reviewBody: 'Edited text.',
          reviewRating: { ratingValue: 2 },
        });
        expect(edited.id).toBe(google.id);
        expect(edited.sourceHash).not.toBe(google.sourceHash);
        await commit([edited]);
        expect(await store.countReviews()).toBe(2);
        const found = await store.transaction((tx) =>
          tx.getReviews([
            { source: 'google', sourceReviewId: '1' },
            { source: 'yelp', sourceReviewId: '1' },
            { source: 'google', sourceReviewId: 'missing' },
          ]),
        );
        expect([...found.keys()].sort()).toEqual(
          [reviewKey('google', '1'), reviewKey('yelp', '1')].sort(),
        );
        expect(found.get(reviewKey('google', '1'))).toEqual(edited);
        expect(found.get(reviewKey('yelp', '1'))).toEqual(yelp);
        expect([...(await store.readDataset()).reviews].sort()).toEqual(
          [edited.publicJson, yelp.publicJson].sort(),
        );
      });

      it('reads its own writes inside the transaction', async () => {
        await store.transaction(async (tx) => {
          await tx.putBusiness(BUSINESS);
          await tx.upsertReviews([storedRow('a')]);
          expect(await tx.getBusiness()).toEqual(BUSINESS);
          const found = await tx.getReviews([{ source: 'google', sourceReviewId: 'a' }]);
          expect(found.get(reviewKey('google', 'a'))).toEqual(storedRow('a'));
          await tx.putBusiness(RENAMED);
          expect(await tx.getBusiness()).toEqual(RENAMED);
        });
        expect((await store.readDataset()).business).toEqual(RENAMED);
      });

      it('prunes only the given sources, keeping the given keys', async () => {
        await commit([
          storedRow('a'),
          storedRow('b'),
          storedRow('c'),
          storedRow('a', {}, 'dealerrater'),
          storedRow('x', {}, 'dealerrater'),
          storedRow('y', {}, 'yelp'),
        ]);
        const removed = await store.transaction(async (tx) => {
          const n = await tx.pruneReviews(['google'], new Set([reviewKey('google', 'a')]));
          await tx.bumpVersion('2025-01-02T00:00:00.000Z');
          return n;
        });
        expect(removed).toBe(2);
        const keys = async () =>
          (await allStored()).map((r) => reviewKey(r.source, r.sourceReviewId));
        expect((await keys()).sort()).toEqual(
          [
            reviewKey('google', 'a'),
            reviewKey('dealerrater', 'a'),
            reviewKey('dealerrater', 'x'),
            reviewKey('yelp', 'y'),
          ].sort(),
        );
        // A key of another source protects nothing; an absent source or no source prunes nothing.
        expect(
          await store.transaction((tx) =>
            tx.pruneReviews(['dealerrater', 'facebook'], new Set([reviewKey('google', 'x')])),
          ),
        ).toBe(2);
        expect(await store.transaction((tx) => tx.pruneReviews([], new Set()))).toBe(0);
        expect((await keys()).sort()).toEqual(
          [reviewKey('google', 'a'), reviewKey('yelp', 'y')].sort(),
        );
      });

      it('visits every review once in pages, also when the pages are rewritten as they go', async () => {
        const rows = Array.from({ length: 7 }, (_, i) => storedRow(`r${i}`));
        await commit(rows);
        const pages: StoredReview[][] = [];
        await store.transaction((tx) =>
          tx.forEachReview(3, async (page) => {
            pages.push(page);
            await tx.upsertReviews(page.map((r) => ({ ...r, publicJson: `${r.publicJson} ` })));
          }),
        );
        for (const page of pages) {
          expect(page.length).toBeGreaterThan(0);
          expect(page.length).toBeLessThanOrEqual(3);
        }
        expect(pages).toHaveLength(3);
        expect(sortById(pages.flat())).toEqual(sortById(rows));
        const after = await allStored();
        expect(after.every((r) => r.publicJson.endsWith('} '))).toBe(true);
        expect(after).toHaveLength(7);
      });

      it('calls back no page on an empty store', async () => {
        const pages: StoredReview[][] = [];
        await store.transaction((tx) => tx.forEachReview(10, async (p) => void pages.push(p)));
        expect(pages.flat()).toEqual([]);
      });

      it('keeps the derivation version of each record, and finds those older than a version', async () => {
        const rows = ['a', 'b', 'c', 'd'].map((k, i) => ({ ...storedRow(k), derivedVersion: i }));
        await commit(rows);
        const stored = new Map((await allStored()).map((r) => [r.sourceReviewId, r]));
        expect(['a', 'b', 'c', 'd'].map((k) => stored.get(k)?.derivedVersion)).toEqual([
          0, 1, 2, 3,
        ]);
        expect(await store.countDerivedBefore(2)).toBe(2);
        expect(await store.countDerivedBefore(0)).toBe(0);
        const older: StoredReview[] = [];
        await store.transaction((tx) =>
          tx.forEachReview(1, async (page) => void older.push(...page), { derivedBefore: 2 }),
        );
        expect(sortById(older)).toEqual(sortById(rows.slice(0, 2)));
        await commit([{ ...rows[0]!, derivedVersion: 5 }]);
        expect(await store.countDerivedBefore(2)).toBe(1);
      });
    });

    describe('rate limits', () => {
      it('counts requests per key in fixed windows and says how long until the window ends', async () => {
        expect(await store.rates.take('k', 1_000, 60_000, 2)).toEqual({ ok: true });
        expect(await store.rates.take('k', 2_000, 60_000, 2)).toEqual({ ok: true });
        expect(await store.rates.take('k', 3_000, 60_000, 2)).toEqual({
          ok: false,
          retryAfterMs: 58_000,
        });
        expect(await store.rates.take('other', 3_000, 60_000, 2)).toEqual({ ok: true });
        // A new window starts at the first request after the last one ended.
        expect(await store.rates.take('k', 61_000, 60_000, 2)).toEqual({ ok: true });
      });

      it('counts each of many concurrent requests of one key once, across instances', async () => {
        const other = await fixture.openAnother();
        const decisions = await Promise.all(
          Array.from({ length: 24 }, (_, i) =>
            (i % 2 ? other : store).rates.take('burst', 1_000, 60_000, 10),
          ),
        );
        expect(decisions.filter((d) => d.ok)).toHaveLength(10);
        expect(await store.rates.take('burst', 2_000, 60_000, 10)).toEqual({
          ok: false,
          retryAfterMs: 59_000,
        });
      });

      it('shares the counts between instances on one database', async () => {
        const other = await fixture.openAnother();
        expect(await store.rates.take('shared', 0, 60_000, 1)).toEqual({ ok: true });
        expect(await other.rates.take('shared', 10, 60_000, 1)).toEqual({
          ok: false,
          retryAfterMs: 59_990,
        });
      });
    });

    describe('sessions', () => {
      it('keeps the resources a session subscribed to, until it ends or expires', async () => {
        const other = await fixture.openAnother();
        await store.sessions.subscribe('s1', 'https://r.example/feed.xml', 10_000);
        await store.sessions.subscribe('s1', 'https://r.example/reviews.json', 10_000);
        await store.sessions.subscribe('s2', 'https://r.example/feed.xml', 20_000);
        // Shared: another instance sees them.
        expect(await other.sessions.subscriptions('s1', 5_000)).toEqual([
          'https://r.example/feed.xml',
          'https://r.example/reviews.json',
        ]);
        await other.sessions.unsubscribe('s1', 'https://r.example/reviews.json');
        expect(await store.sessions.subscriptions('s1', 5_000)).toEqual([
          'https://r.example/feed.xml',
        ]);
        // Expired, or ended: none.
        expect(await store.sessions.subscriptions('s1', 10_001)).toEqual([]);
        await store.sessions.end('s2', 20_000);
        expect(await store.sessions.subscriptions('s2', 5_000)).toEqual([]);
        expect(await store.sessions.purgeEnded(25_000)).toBeGreaterThanOrEqual(2);
      });

      it('keeps the log level a session asked for, until it ends or expires', async () => {
        const other = await fixture.openAnother();
        expect(await store.sessions.logLevel('s3', 0)).toBeNull();
        await store.sessions.setLogLevel('s3', 'warning', 10_000);
        await other.sessions.setLogLevel('s3', 'debug', 10_000);
        expect(await store.sessions.logLevel('s3', 5_000)).toBe('debug');
        expect(await store.sessions.logLevel('s3', 10_001)).toBeNull();
        await store.sessions.end('s3', 10_000);
        expect(await other.sessions.logLevel('s3', 5_000)).toBeNull();
      });

      it('creates a secret once and then returns it to every caller', async () => {
        const first = await store.sessions.secret('mcp', 'first-secret-value');
        expect(first).toBe('first-secret-value');
        expect(await store.sessions.secret('mcp', 'second-secret-value')).toBe(first);
        const [x, y] = await Promise.all([
          store.sessions.secret('other', 'x-secret'),
          store.sessions.secret('other', 'y-secret'),
        ]);
        expect(x).toBe(y);
        expect(await store.sessions.secret('mcp', 'third')).toBe('first-secret-value');
      });

      it('records ended sessions until they expire', async () => {
        expect(await store.sessions.isEnded('k1')).toBe(false);
        await store.sessions.end('k1', 1_000);
        await store.sessions.end('k2', 5_000);
        expect(await store.sessions.isEnded('k1')).toBe(true);
        expect(await store.sessions.isEnded('k2')).toBe(true);
        expect(await store.sessions.purgeEnded(500)).toBe(0);
        expect(await store.sessions.purgeEnded(2_000)).toBe(1);
        expect(await store.sessions.isEnded('k1')).toBe(false);
        expect(await store.sessions.isEnded('k2')).toBe(true);
        expect(await store.sessions.purgeEnded(2_000)).toBe(0);
        expect(await store.sessions.purgeEnded(10_000)).toBe(1);
        expect(await store.sessions.isEnded('k2')).toBe(false);
      });
    });

    describe('analyses', () => {
      it('gets, puts (replacing), counts and retains analyses by key', async () => {
        expect(await store.analyses.count()).toBe(0);
        expect(await store.analyses.get(['a', 'b'])).toEqual(new Map());
        await store.analyses.put([
          ['a', '{"v":1}'],
          ['b', '{"v":2}'],
          ['c', '{"v":3}'],
        ]);
        await store.analyses.put([['a', '{"v":10}']]);
        expect(await store.analyses.count()).toBe(3);
        expect(await store.analyses.get(['a', 'b', 'zzz'])).toEqual(
          new Map([
            ['a', '{"v":10}'],
            ['b', '{"v":2}'],
          ]),
        );
        await store.analyses.put([]);
        expect(await store.analyses.retain(new Set(['a', 'c', 'not-stored']))).toBe(1);
        expect(await store.analyses.count()).toBe(2);
        expect(await store.analyses.get(['a', 'b', 'c'])).toEqual(
          new Map([
            ['a', '{"v":10}'],
            ['c', '{"v":3}'],
          ]),
        );
        expect(await store.analyses.retain(new Set(['a', 'c']))).toBe(0);
        expect(await store.analyses.retain(new Set())).toBe(2);
        expect(await store.analyses.count()).toBe(0);
      });

      it('keeps analyses apart from the published data and its version', async () => {
        const state = await commit([storedRow('a')]);
        await store.analyses.put([['k', '{}']]);
        await store.analyses.retain(new Set());
        expect(await store.state()).toEqual(state);
      });
    });

    describeWebSubContract(
      () => store,
      () => fixture.openAnother(),
    );

    describeModerationContract(
      () => store,
      () => fixture.openAnother(),
    );

    describeChangesContract(
      () => store,
      () => fixture.openAnother(),
    );

    describeSourcesContract(
      () => store,
      () => fixture.openAnother(),
    );

    describeWatchContract(
      () => store,
      () => fixture.openAnother(),
      options.watches,
    );

    describe('several instances on one database', () => {
      it('share committed data, versions, secrets and ended sessions', async () => {
        const other = await fixture.openAnother();
        const state = await commit([storedRow('a')], '2025-04-01T00:00:00.000Z', BUSINESS);
        expect(await other.state()).toEqual(state);
        expect(await other.readDataset()).toEqual(await store.readDataset());
        const secret = await store.sessions.secret('mcp', 'shared-secret-value');
        expect(await other.sessions.secret('mcp', 'another-value')).toBe(secret);
        await other.sessions.end('k', 9_000);
        expect(await store.sessions.isEnded('k')).toBe(true);
        await other.analyses.put([['x', '1']]);
        expect(await store.analyses.get(['x'])).toEqual(new Map([['x', '1']]));
      });
    });
  });
}
