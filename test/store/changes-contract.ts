/**
 * The change feed part of the Store contract: what `readPublished` tells of the feed (each
 * published review's sequence number, the tombstones, the epoch and the last sequence number)
 * after imports, edits, no-op writes, prunes, hides and unhides, and across instances. Run by
 * `describeStoreContract` for each engine; not a test file itself.
 */
import { describe, expect, it } from 'vitest';
import { storedRow } from '../helpers/records.js';
import {
  CONCURRENT_CHANGE,
  reviewKey,
  type ChangeFeedHead,
  type ModerationRecord,
  type ReviewRemoval,
  type Store,
  type StoredReview,
} from '../../src/store/index.js';
import { isServiceError } from '../../src/platform/errors.js';
import { gate } from './concurrency-contract.js';

/** The feed as an ordered read tells it. */
export interface FeedView {
  head: ChangeFeedHead;
  /** The sequence number of each published review, by id. */
  seqs: Record<string, number>;
  removals: ReviewRemoval[];
}

export async function readFeed(store: Store): Promise<FeedView> {
  const view: FeedView = { head: { epoch: '', lastSeq: -1 }, seqs: {}, removals: [] };
  await store.readPublished({
    begin: (h) => (view.head = h.feed),
    review: (json, seq) => (view.seqs[(JSON.parse(json) as { id: string }).id] = seq),
    removal: (r) => view.removals.push(r),
  });
  return view;
}

const decision = (reviewId: string, action: 'hide' | 'unhide', at: string): ModerationRecord => ({
  reviewId,
  action,
  reason: 'a private note',
  actor: 'op',
  at,
});

export function describeChangesContract(
  getStore: () => Store,
  openAnother: () => Promise<Store>,
): void {
  describe('the change feed', () => {
    const commit = (rows: StoredReview[], changedAt = '2025-01-01T00:00:00.000Z') =>
      getStore().transaction(async (tx) => {
        await tx.upsertReviews(rows);
        return tx.bumpVersion(changedAt);
      });
    const [A, B, C] = ['a', 'b', 'c'].map((k) => storedRow(k));

    it('starts empty, with an epoch of its own, and numbers each new review once', async () => {
      const empty = await readFeed(getStore());
      expect(empty).toEqual({
        head: { epoch: expect.stringMatching(/^[0-9a-f]{16}$/) as unknown, lastSeq: 0 },
        seqs: {},
        removals: [],
      });
      await commit([A!, B!, C!]);
      const feed = await readFeed(getStore());
      expect(feed.head).toEqual({ epoch: empty.head.epoch, lastSeq: 3 });
      expect(Object.values(feed.seqs).sort()).toEqual([1, 2, 3]);
    });

    it('moves an edited review to a new sequence number, and leaves unchanged records alone', async () => {
      await commit([A!, B!]);
      const before = await readFeed(getStore());
      // The same records again (newer derivation code, same public record): nothing to tell.
      await commit([{ ...A!, derivedVersion: A!.derivedVersion + 1 }, B!]);
      expect(await readFeed(getStore())).toEqual(before);
      const edited = storedRow('a', { reviewBody: 'Edited.' });
      await commit([edited]);
      const after = await readFeed(getStore());
      expect(after.head.lastSeq).toBe(3);
      expect(after.seqs).toEqual({ [A!.id]: 3, [B!.id]: before.seqs[B!.id] });
    });

    it('tells a pruned review as a removal (deleted, at the commit time)', async () => {
      await commit([A!, B!]);
      await getStore().transaction(async (tx) => {
        await tx.pruneReviews(['google'], new Set([reviewKey('google', 'b')]));
        return tx.bumpVersion('2025-02-01T00:00:00.000Z');
      });
      const feed = await readFeed(getStore());
      expect(feed.seqs).toEqual({ [B!.id]: expect.any(Number) as unknown });
      expect(feed.removals).toEqual([
        { seq: 3, id: A!.id, removedAt: '2025-02-01T00:00:00.000Z', reason: 'deleted' },
      ]);
    });

    it('tells a hide as a removal (hidden, never the operator reason) and an unhide as an upsert', async () => {
      const store = getStore();
      await commit([A!, B!]);
      await store.moderation.apply(decision(A!.id, 'hide', '2025-03-01T00:00:00.000Z'));
      let feed = await readFeed(store);
      expect(feed.removals).toEqual([
        { seq: 3, id: A!.id, removedAt: '2025-03-01T00:00:00.000Z', reason: 'hidden' },
      ]);
      // An import that updates the hidden review keeps it out of the feed.
      await commit([storedRow('a', { reviewBody: 'Edited while hidden.' })]);
      expect(await readFeed(store)).toEqual(feed);
      await store.moderation.apply(decision(A!.id, 'unhide', '2025-03-02T00:00:00.000Z'));
      feed = await readFeed(store);
      expect(feed.removals).toEqual([]);
      expect(feed.seqs[A!.id]).toBe(4);
      expect(feed.head.lastSeq).toBe(4);
    });

    it('is the same feed on another instance, and numbers changes in commit order', async () => {
      const store = getStore();
      const other = await openAnother();
      await commit([A!, B!]);
      expect(await readFeed(other)).toEqual(await readFeed(store));
      // A write holds its transaction open while another instance hides a review.
      const held = gate();
      const inside = gate();
      const committed: string[] = [];
      const tx = store
        .transaction(async (t) => {
          await t.upsertReviews([C!]);
          await t.bumpVersion('2025-04-01T00:00:00.000Z');
          inside.open();
          await held.wait;
        })
        .then(
          () => committed.push(C!.id),
          // SQLite's staged write checks the version at its end: the hide committed first.
          (err: unknown) => {
            if (!isServiceError(err, CONCURRENT_CHANGE)) throw err;
          },
        );
      await inside.wait;
      const hide = other.moderation
        .apply(decision(B!.id, 'hide', '2025-04-01T00:00:01.000Z'))
        .then(() => committed.push(B!.id));
      // Whatever a reader sees meanwhile is a whole prefix of the feed.
      const meanwhile = await readFeed(other);
      expect(
        Math.max(0, ...Object.values(meanwhile.seqs), ...meanwhile.removals.map((r) => r.seq)),
      ).toBe(meanwhile.head.lastSeq);
      held.open();
      await Promise.all([tx, hide]);
      const feed = await readFeed(store);
      const seqOf = (id: string) => feed.seqs[id] ?? feed.removals.find((r) => r.id === id)!.seq;
      expect(committed).toContain(B!.id);
      expect(committed.map(seqOf)).toEqual(committed.map((_, i) => 3 + i));
      expect(feed.head.lastSeq).toBe(2 + committed.length);
    });
  });
}
