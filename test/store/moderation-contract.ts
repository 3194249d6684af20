/**
 * The moderation part of the Store contract: hiding a review from publication and showing it
 * again, through `store.moderation`, `readDataset` and the write transaction only. Run by
 * `describeStoreContract` for each engine; not a test file itself.
 */
import { describe, expect, it } from 'vitest';
import { storedRow } from '../helpers/records.js';
import {
  reviewKey,
  type ModerationRecord,
  type PublishedHead,
  type Store,
  type StoredReview,
} from '../../src/store/index.js';

const hide = (reviewId: string, at = '2025-03-01T10:00:00.000Z'): ModerationRecord => ({
  reviewId,
  action: 'hide',
  reason: 'Posted by a competitor',
  actor: 'ops@host-1',
  at,
});

const unhide = (reviewId: string, at = '2025-03-02T10:00:00.000Z'): ModerationRecord => ({
  reviewId,
  action: 'unhide',
  reason: null,
  actor: 'ana',
  at,
});

export function describeModerationContract(
  getStore: () => Store,
  openAnother: () => Promise<Store>,
): void {
  describe('moderation (hidden reviews)', () => {
    const A = storedRow('a');
    const B = storedRow('b');

    async function commit(rows: StoredReview[]) {
      return getStore().transaction(async (tx) => {
        await tx.upsertReviews(rows);
        return tx.bumpVersion('2025-01-01T00:00:00.000Z');
      });
    }

    const published = async () => [...(await getStore().readDataset()).reviews].sort();

    it('leaves a hidden review out of the dataset, as a new version at the time of the hide', async () => {
      const store = getStore();
      const before = await commit([A, B]);
      const outcome = await store.moderation.apply(hide(A.id));
      const state = await store.state();
      expect(outcome).toEqual({ status: 'changed', state });
      expect(state.version).toBeGreaterThan(before.version);
      expect(state.changedAt).toBe('2025-03-01T10:00:00.000Z');
      expect(await store.readDataset()).toEqual({
        state,
        business: null,
        reviews: [B.publicJson],
      });
      expect(await store.moderation.hiddenIds()).toEqual(new Set([A.id]));
      // Still stored: imports see and update it.
      expect(await store.countReviews()).toBe(2);
      const found = await store.transaction((tx) =>
        tx.getReviews([{ source: 'google', sourceReviewId: 'a' }]),
      );
      expect(found.get(reviewKey('google', 'a'))).toEqual(A);
    });

    it('leaves a hidden review out of the ordered read too, count and bytes included', async () => {
      const store = getStore();
      await commit([A, B]);
      await store.moderation.apply(hide(A.id));
      const heads: PublishedHead[] = [];
      const texts: string[] = [];
      await store.readPublished({
        begin: (h) => heads.push(h),
        review: (t) => texts.push(t),
        removal: () => undefined,
      });
      expect(heads).toEqual([
        {
          state: await store.state(),
          business: null,
          count: 1,
          bytes: Buffer.byteLength(B.publicJson),
          feed: { epoch: expect.stringMatching(/^[0-9a-f]{16}$/) as unknown, lastSeq: 3 },
        },
      ]);
      expect(texts).toEqual([B.publicJson]);
    });

    it('logs who, when and why of every hide and unhide, oldest first', async () => {
      const store = getStore();
      await commit([A, B]);
      await store.moderation.apply(hide(A.id));
      await store.moderation.apply(unhide(A.id));
      await store.moderation.apply(hide(A.id, '2025-03-03T10:00:00.000Z'));
      expect(await store.moderation.log(A.id)).toEqual([
        hide(A.id),
        unhide(A.id),
        hide(A.id, '2025-03-03T10:00:00.000Z'),
      ]);
      expect(await store.moderation.log(B.id)).toEqual([]);
    });

    it('shows a review again when it is unhidden, as another new version', async () => {
      const store = getStore();
      await commit([A, B]);
      const hidden = await store.moderation.apply(hide(A.id));
      const shown = await store.moderation.apply(unhide(A.id));
      expect(shown.status).toBe('changed');
      const state = await store.state();
      expect(state.version).toBeGreaterThan(hidden.status === 'changed' ? hidden.state.version : 0);
      expect(state.changedAt).toBe('2025-03-02T10:00:00.000Z');
      expect(await published()).toEqual([A.publicJson, B.publicJson].sort());
      expect(await store.moderation.hiddenIds()).toEqual(new Set());
    });

    it('writes nothing for a review already in that state', async () => {
      const store = getStore();
      await commit([A, B]);
      expect(await store.moderation.apply(unhide(B.id))).toEqual({ status: 'unchanged' });
      await store.moderation.apply(hide(A.id));
      const state = await store.state();
      expect(await store.moderation.apply(hide(A.id, '2025-04-01T00:00:00.000Z'))).toEqual({
        status: 'unchanged',
      });
      expect(await store.state()).toEqual(state);
      expect(await store.moderation.log(A.id)).toEqual([hide(A.id)]);
      expect(await store.moderation.log(B.id)).toEqual([]);
    });

    it('writes nothing for an id that no stored review has', async () => {
      const store = getStore();
      const state = await commit([A]);
      const missing = storedRow('missing').id;
      expect(await store.moderation.apply(hide(missing))).toEqual({ status: 'unknown' });
      expect(await store.moderation.apply(unhide(missing))).toEqual({ status: 'unknown' });
      expect(await store.state()).toEqual(state);
      expect(await store.moderation.log(missing)).toEqual([]);
      expect(await store.moderation.hiddenIds()).toEqual(new Set());
    });

    it('keeps a review hidden when it is written again, and after a prune and a new insert', async () => {
      const store = getStore();
      await commit([A, B]);
      await store.moderation.apply(hide(A.id));
      const edited = storedRow('a', { reviewBody: 'Edited at the source.' });
      await commit([edited]);
      expect(await published()).toEqual([B.publicJson]);
      await store.transaction((tx) =>
        tx.pruneReviews(['google'], new Set([reviewKey('google', 'b')])),
      );
      expect(await store.countReviews()).toBe(1);
      await commit([edited]);
      expect(await published()).toEqual([B.publicJson]);
      expect(await store.moderation.hiddenIds()).toEqual(new Set([A.id]));
      await store.moderation.apply(unhide(A.id));
      expect(await published()).toEqual([B.publicJson, edited.publicJson].sort());
    });

    it('shows again a hidden review whose row a prune removed', async () => {
      const store = getStore();
      await commit([A, B]);
      await store.moderation.apply(hide(A.id));
      await store.transaction((tx) =>
        tx.pruneReviews(['google'], new Set([reviewKey('google', 'b')])),
      );
      expect((await store.moderation.apply(unhide(A.id))).status).toBe('changed');
      expect(await store.moderation.hiddenIds()).toEqual(new Set());
      await commit([A]);
      expect(await published()).toEqual([A.publicJson, B.publicJson].sort());
    });

    it('shares hides with another instance on the same database', async () => {
      const store = getStore();
      await commit([A, B]);
      const other = await openAnother();
      await other.moderation.apply(hide(B.id));
      expect(await published()).toEqual([A.publicJson]);
      expect(await store.moderation.hiddenIds()).toEqual(new Set([B.id]));
      expect(await store.moderation.log(B.id)).toEqual([hide(B.id)]);
      expect(await store.state()).toEqual(await other.state());
    });
  });
}
