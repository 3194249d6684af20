import { describe, expect, it } from 'vitest';
import { testBusiness } from '../../test/helpers/fixtures.js';
import { sourceRow } from '../../test/helpers/records.js';
import { withTempStore } from '../../test/helpers/temp-store.js';
import { Business } from '../domain/business.js';
import { reviewId } from '../domain/ids.js';
import { Review, type ReviewSource } from '../domain/review.js';
import { compileMentionMatcher } from '../mentions/index.js';
import { reviewKey, type Store, type StoredReview } from '../store/index.js';
import { deriveReview } from './derive.js';
import { ingest, ingestStream, type IngestResult } from './ingest.js';

const BUSINESS = Business.parse(testBusiness());
const T1 = '2025-06-01T10:00:00.000Z';
const T2 = '2025-06-02T10:00:00.000Z';
const T3 = '2025-06-03T10:00:00.000Z';

let store: Store;

withTempStore('ingest-', (opened) => (store = opened));

/** Every stored review, keyed `source\u0000sourceReviewId`. */
async function stored(): Promise<Map<string, StoredReview>> {
  const out = new Map<string, StoredReview>();
  await store.transaction((tx) =>
    tx.forEachReview(100, async (page) => {
      for (const r of page) out.set(reviewKey(r.source, r.sourceReviewId), r);
    }),
  );
  return out;
}

async function publicReview(key: string, source = 'google'): Promise<Review> {
  const row = (await stored()).get(reviewKey(source, key));
  if (!row) throw new Error(`no stored review ${source}/${key}`);
  return JSON.parse(row.publicJson) as Review;
}

const counts = (r: IngestResult) => ({
  inserted: r.inserted,
  updated: r.updated,
  unchanged: r.unchanged,
  pruned: r.pruned,
  rederived: r.rederived,
  businessChanged: r.businessChanged,
});
const NONE = {
  inserted: 0,
  updated: 0,
  unchanged: 0,
  pruned: 0,
  rederived: 0,
  businessChanged: false,
};

const ROWS: ReviewSource[] = [
  sourceRow('a', {
    reviewBody: 'Sarah Lopez fixed my brakes quickly.',
    datePublished: '2025-01-10T03:00:00.000Z',
  }),
  sourceRow('b', { reviewBody: 'Dave Kim sold me a truck.', reviewRating: { ratingValue: 4 } }),
  sourceRow('c', { reviewBody: 'Waited too long.', reviewRating: { ratingValue: 2 } }),
];

describe('ingest', () => {
  it('inserts new rows and bumps the version once, with the commit time', async () => {
    const v0 = await store.state();
    const result = await ingest(store, { reviews: ROWS, now: T1 });
    expect(counts(result)).toEqual({ ...NONE, inserted: 3 });
    expect(result.state).not.toBeNull();
    expect(result.state!.version).toBeGreaterThan(v0.version);
    expect(result.state!.changedAt).toBe(T1);
    expect(await store.state()).toEqual(result.state);
    expect(await store.countReviews()).toBe(3);
  });

  it('changes nothing, not even the version, when the same input comes again', async () => {
    const first = await ingest(store, { reviews: ROWS, business: BUSINESS, now: T1 });
    const dataset = await store.readDataset();
    const again = await ingest(store, { reviews: ROWS, business: BUSINESS, now: T2 });
    expect(counts(again)).toEqual({ ...NONE, unchanged: 3 });
    expect(again.state).toBeNull();
    expect(await store.state()).toEqual(first.state);
    expect(await store.readDataset()).toEqual(dataset);
  });

  it('updates a changed row in place, moving dateModified to the import time', async () => {
    await ingest(store, { reviews: ROWS, now: T1 });
    const before = await publicReview('b');
    const edited = { ...ROWS[1]!, reviewBody: 'Dave Kim sold me a truck. Two stars off.' };
    const result = await ingest(store, { reviews: [ROWS[0]!, edited, ROWS[2]!], now: T2 });
    expect(counts(result)).toEqual({ ...NONE, updated: 1, unchanged: 2 });
    expect(result.state?.changedAt).toBe(T2);
    const after = await publicReview('b');
    expect(after.id).toBe(before.id);
    expect(after.reviewBody).toBe(edited.reviewBody);
    expect(after.dateModified).toBe(T2);
    expect(after.verification).toEqual(before.verification); // first seen, kept
    expect((await stored()).get(reviewKey('google', 'b'))!.ingestedAt).toBe(T1);
    // A source modification time wins over the import time.
    const modified = { ...edited, reviewBody: 'Again.', dateModified: '2025-05-05T05:05:05.000Z' };
    await ingest(store, { reviews: [modified], now: T3 });
    expect((await publicReview('b')).dateModified).toBe('2025-05-05T05:05:05.000Z');
  });

  it('issue 28: keeps dateModified when only the reply, verification or department changed (no edit of the review)', async () => {
    await ingest(store, { reviews: ROWS, now: T1 });
    const before = await publicReview('b');
    const replied = {
      ...ROWS[1]!,
      ownerResponse: { text: 'Thank you, Dave will call you.', dateModified: null },
      department: 'sales' as const,
      verification: { level: 'transaction-matched' as const, checkedAt: T2 },
    };
    const result = await ingest(store, { reviews: [replied], now: T2 });
    expect(counts(result)).toEqual({ ...NONE, updated: 1 });
    const after = await publicReview('b');
    expect(after.ownerResponse?.text).toBe('Thank you, Dave will call you.');
    expect(after.dateModified).toBe(before.dateModified);
    // The reviewer's own change after that is an edit, at the import time.
    await ingest(store, { reviews: [{ ...replied, reviewRating: { ratingValue: 3 } }], now: T3 });
    expect((await publicReview('b')).dateModified).toBe(T3);
  });

  it('keys rows on (source, sourceReviewId): the same id from two sources is two reviews', async () => {
    const result = await ingest(store, {
      reviews: [sourceRow('1'), sourceRow('1', {}, 'dealerrater')],
      now: T1,
    });
    expect(result.inserted).toBe(2);
    expect((await publicReview('1')).id).toBe(reviewId('google', '1'));
    expect((await publicReview('1', 'dealerrater')).id).toBe(reviewId('dealerrater', '1'));
    expect((await ingest(store, { reviews: [sourceRow('1', {}, 'dealerrater')] })).unchanged).toBe(
      1,
    );
  });

  it('bumps the version for a business change alone, and not for the same profile again', async () => {
    const first = await ingest(store, { business: BUSINESS, reviews: [], now: T1 });
    expect(counts(first)).toEqual({ ...NONE, businessChanged: true });
    expect(first.state?.changedAt).toBe(T1);
    expect((await store.readDataset()).business).toEqual(BUSINESS);
    const same = await ingest(store, { business: Business.parse(testBusiness()), reviews: [] });
    expect(same.state).toBeNull();
    expect(same.businessChanged).toBe(false);
    expect(await store.state()).toEqual(first.state);
  });

  it('commits nothing and keeps the version for empty input', async () => {
    const v0 = await store.state();
    const result = await ingest(store, { reviews: [], prune: true });
    expect(counts(result)).toEqual(NONE);
    expect(result.state).toBeNull();
    expect(await store.state()).toEqual(v0);
  });

  it('prunes only the missing reviews of the sources in the input', async () => {
    await ingest(store, {
      reviews: [
        ...ROWS,
        sourceRow('x', {}, 'dealerrater'),
        sourceRow('y', {}, 'dealerrater'),
        sourceRow('z', {}, 'yelp'),
      ],
      now: T1,
    });
    // Without prune, absent reviews stay.
    expect((await ingest(store, { reviews: [ROWS[0]!], now: T2 })).pruned).toBe(0);
    expect(await store.countReviews()).toBe(6);
    const result = await ingest(store, {
      reviews: [ROWS[0]!, sourceRow('y', {}, 'dealerrater')],
      prune: true,
      now: T2,
    });
    // google b and c and dealerrater x are gone; yelp, absent from the input, is not touched.
    expect(counts(result)).toEqual({ ...NONE, unchanged: 2, pruned: 3 });
    expect(result.state?.changedAt).toBe(T2);
    expect([...(await stored()).keys()].sort()).toEqual(
      [reviewKey('dealerrater', 'y'), reviewKey('google', 'a'), reviewKey('yelp', 'z')].sort(),
    );
  });

  it('re-derives mentions and local dates of stored reviews when a new business profile arrives', async () => {
    await ingest(store, { reviews: ROWS, now: T1 });
    const a0 = await publicReview('a');
    expect(a0.mentions).toEqual({ technicians: [], services: [] });
    expect(a0.date).toBe('2025-01-10'); // UTC without a profile
    const result = await ingest(store, { business: BUSINESS, reviews: [], now: T2 });
    // a names Sarah and brakes and was published at 03:00 UTC (the 9th in Chicago); b names Dave;
    // c names nobody and keeps its date: its public record does not change.
    expect(counts(result)).toEqual({ ...NONE, rederived: 2, businessChanged: true });
    const a1 = await publicReview('a');
    expect(a1.mentions.technicians.map((t) => t.name)).toEqual(['Sarah Lopez']);
    expect(a1.mentions.services).toEqual(['brakes']);
    expect(a1.date).toBe('2025-01-09');
    expect(a1.dateModified).toBe(a0.dateModified); // re-derivation is no edit
    expect((await publicReview('b')).mentions.technicians.map((t) => t.name)).toEqual(['Dave Kim']);
    expect(result.state?.changedAt).toBe(T2);

    // A roster without Sarah: only the review naming her changes.
    const roster = Business.parse({
      ...testBusiness(),
      staff: testBusiness().staff!.filter((s) => s.name !== 'Sarah Lopez'),
    });
    const next = await ingest(store, { business: roster, reviews: [], now: T3 });
    expect(counts(next)).toEqual({ ...NONE, rederived: 1, businessChanged: true });
    expect((await publicReview('a')).mentions.technicians).toEqual([]);
  });

  it('derives new rows in the same import with the new profile, counting stored ones apart', async () => {
    await ingest(store, { reviews: [ROWS[0]!], now: T1 });
    const result = await ingest(store, {
      business: BUSINESS,
      reviews: [ROWS[0]!, ROWS[1]!],
      now: T2,
    });
    expect(counts(result)).toEqual({
      ...NONE,
      inserted: 1,
      unchanged: 1,
      rederived: 1,
      businessChanged: true,
    });
    expect((await publicReview('b')).mentions.technicians.map((t) => t.name)).toEqual(['Dave Kim']);
  });

  it('stores exactly the public JSON that deriveReview produces, a valid Review', async () => {
    await ingest(store, { business: BUSINESS, reviews: ROWS, now: T1 });
    const ctx = { business: BUSINESS, matcher: compileMentionMatcher(BUSINESS), now: T1 };
    const rows = await stored();
    expect(rows.size).toBe(ROWS.length);
    for (const source of ROWS) {
      const row = rows.get(reviewKey(source.source, source.sourceReviewId))!;
      const derived = deriveReview(source, ctx);
      expect(row).toEqual(derived);
      const review = Review.parse(JSON.parse(row.publicJson));
      expect(review.id).toBe(reviewId(source.source, source.sourceReviewId));
      expect(review.verification).toEqual({ level: 'source-confirmed', checkedAt: T1 });
    }
    // And what the store publishes is those texts.
    expect((await store.readDataset()).reviews.sort()).toEqual(
      ROWS.map((s) => deriveReview(s, ctx).publicJson).sort(),
    );
  });

  it('reports progress after each batch', async () => {
    const progress: [number, number][] = [];
    const many = Array.from({ length: 2500 }, (_, i) => sourceRow(`m${i}`));
    const result = await ingest(store, {
      reviews: many,
      now: T1,
      onProgress: (done, total) => progress.push([done, total]),
    });
    expect(result.inserted).toBe(2500);
    expect(progress).toEqual([
      [1000, 2500],
      [2000, 2500],
      [2500, 2500],
    ]);
    expect(await store.countReviews()).toBe(2500);
  });
});

describe('ingestStream', () => {
  it('takes batches from an async source, handing it the business in force', async () => {
    await ingest(store, { business: BUSINESS, reviews: [], now: T1 });
    const seen: (Business | null)[] = [];
    const batches: [number, number][] = [];
    const result = await ingestStream(store, {
      batches: async function* (business) {
        seen.push(business);
        yield [ROWS[0]!];
        yield [ROWS[1]!, ROWS[2]!];
        yield [ROWS[0]!];
      },
      onBatch: (r, rows) => void batches.push([r.inserted + r.unchanged, rows]),
      now: T2,
    });
    expect(seen).toEqual([BUSINESS]);
    expect(batches).toEqual([
      [1, 1],
      [3, 3],
      [4, 4],
    ]);
    expect(counts(result)).toEqual({ ...NONE, inserted: 3, unchanged: 1 });
    expect(result.state?.changedAt).toBe(T2);
  });

  it('counts alsoPresent keys (rejected rows) as present when pruning, sources included', async () => {
    await ingest(store, {
      reviews: [...ROWS, sourceRow('x', {}, 'dealerrater'), sourceRow('w', {}, 'dealerrater')],
      now: T1,
    });
    const result = await ingestStream(store, {
      batches: () => [[ROWS[0]!]],
      prune: true,
      alsoPresent: () => [
        { source: 'google', sourceReviewId: 'b' },
        { source: 'dealerrater', sourceReviewId: 'x' },
      ],
      now: T2,
    });
    // google c and dealerrater w are pruned: dealerrater is in the input through its rejected row.
    expect(result.pruned).toBe(2);
    expect([...(await stored()).keys()].sort()).toEqual(
      [reviewKey('dealerrater', 'x'), reviewKey('google', 'a'), reviewKey('google', 'b')].sort(),
    );
  });

  it('rolls everything back when beforeCommit throws: reviews, business and version', async () => {
    await ingest(store, { reviews: [ROWS[2]!], now: T1 });
    const dataset = await store.readDataset();
    let checked: IngestResult | undefined;
    await expect(
      ingestStream(store, {
        business: BUSINESS,
        batches: () => [[ROWS[0]!, ROWS[1]!], [{ ...ROWS[2]!, reviewBody: 'Changed.' }]],
        prune: true,
        now: T2,
        beforeCommit: (r) => {
          checked = { ...r };
          throw new Error('strict: rejected rows');
        },
      }),
    ).rejects.toThrow('strict: rejected rows');
    expect(checked).toMatchObject({ inserted: 2, updated: 1, businessChanged: true, state: null });
    expect(await store.readDataset()).toEqual(dataset);
  });

  it('rolls back the batches already written when a later batch throws', async () => {
    const v0 = await store.state();
    await expect(
      ingestStream(store, {
        batches: function* () {
          yield [ROWS[0]!];
          throw new Error('the file ended mid-row');
        },
        now: T1,
      }),
    ).rejects.toThrow('mid-row');
    expect(await store.state()).toEqual(v0);
    expect(await store.countReviews()).toBe(0);
  });
});
