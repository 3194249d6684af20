/**
 * The source-runs part of the Store contract: the lease on a configured review source and the
 * outcome of its runs, through `store.sources` only. Run by `describeStoreContract` for each
 * engine; not a test file itself.
 */
import { describe, expect, it } from 'vitest';
import { storedRow } from '../helpers/records.js';
import type { ModerationRecord, Store, StoredReview } from '../../src/store/index.js';
import { readFeed } from './changes-contract.js';

const MINUTE = 60_000;

export function describeSourcesContract(
  getStore: () => Store,
  openAnother: () => Promise<Store>,
): void {
  describe('source runs (leases)', () => {
    it('knows nothing of a source that never ran', async () => {
      expect(await getStore().sources.get('gbp')).toBeNull();
    });

    it('gives a free lease, renews it for its holder and refuses it to others until it expires', async () => {
      const store = getStore();
      expect(await store.sources.acquire('gbp', 'a', 1_000, MINUTE)).toBe(true);
      expect(await store.sources.acquire('gbp', 'b', 2_000, MINUTE)).toBe(false);
      expect(await store.sources.acquire('gbp', 'a', 30_000, MINUTE)).toBe(true);
      expect(await store.sources.get('gbp')).toMatchObject({
        holder: 'a',
        leaseUntil: 30_000 + MINUTE,
        lastStartedAt: 1_000,
      });
      expect(await store.sources.acquire('gbp', 'b', 30_000 + MINUTE - 1, MINUTE)).toBe(false);
      // Another source's lease is its own.
      expect(await store.sources.acquire('urls', 'b', 2_000, MINUTE)).toBe(true);
      // An expired lease goes to whoever asks, and its former holder cannot finish.
      expect(await store.sources.acquire('gbp', 'b', 30_000 + MINUTE, MINUTE)).toBe(true);
      const outcome = { at: 100_000, error: null, full: false, cursor: 'x' };
      expect(await store.sources.finish('gbp', 'a', outcome)).toBe(false);
      expect(await store.sources.get('gbp')).toMatchObject({ holder: 'b', lastSuccessAt: null });
    });

    it('records successes, full passes, failures and the cursor, and frees the lease', async () => {
      const store = getStore();
      await store.sources.acquire('gbp', 'a', 1_000, MINUTE);
      const full = { at: 5_000, error: null, full: true, cursor: '2025-01-01T00:00:00Z' };
      expect(await store.sources.finish('gbp', 'a', full)).toBe(true);
      expect(await store.sources.get('gbp')).toEqual({
        name: 'gbp',
        holder: null,
        leaseUntil: 0,
        lastStartedAt: 1_000,
        lastSuccessAt: 5_000,
        lastFullAt: 5_000,
        lastError: null,
        cursor: '2025-01-01T00:00:00Z',
      });
      // A free lease goes to anyone; a failure keeps the last success, full pass and cursor.
      expect(await store.sources.acquire('gbp', 'b', 6_000, MINUTE)).toBe(true);
      const failed = {
        at: 7_000,
        error: 'the token endpoint answered 400',
        full: true,
        cursor: null,
      };
      await store.sources.finish('gbp', 'b', failed);
      expect(await store.sources.get('gbp')).toMatchObject({
        holder: null,
        lastStartedAt: 6_000,
        lastSuccessAt: 5_000,
        lastFullAt: 5_000,
        lastError: 'the token endpoint answered 400',
        cursor: '2025-01-01T00:00:00Z',
      });
      // An incremental success clears the error and keeps the full pass's time.
      await store.sources.acquire('gbp', 'a', 8_000, MINUTE);
      await store.sources.finish('gbp', 'a', { at: 9_000, error: null, full: false, cursor: null });
      expect(await store.sources.get('gbp')).toMatchObject({
        lastSuccessAt: 9_000,
        lastFullAt: 5_000,
        lastError: null,
        cursor: '2025-01-01T00:00:00Z',
      });
    });

    it('gives a lease to one of several instances racing for it', async () => {
      const other = await openAnother();
      const stores = [getStore(), other, getStore(), other];
      const taken = await Promise.all(
        stores.map((s, i) => s.sources.acquire('race', `holder-${i}`, 1_000, MINUTE)),
      );
      expect(taken.filter(Boolean)).toHaveLength(1);
      const holder = `holder-${taken.indexOf(true)}`;
      expect((await other.sources.get('race'))?.holder).toBe(holder);
    });
  });

  describe('source runs (what a source brought in, and removed at source)', () => {
    const [A, B, C, D] = [storedRow('a'), storedRow('b'), storedRow('c'), storedRow('d')];
    const AT = '2025-03-01T10:00:00.000Z';
    const commit = (rows: StoredReview[]) =>
      getStore().transaction(async (tx) => {
        await tx.upsertReviews(rows);
        return tx.bumpVersion('2025-01-01T00:00:00.000Z');
      });
    const listing = (rows: StoredReview[], full: boolean, at = AT, dryRun = false) => ({
      ids: new Set(rows.map((r) => r.id)),
      full,
      at,
      dryRun,
    });
    const published = async () => [...(await getStore().readDataset()).reviews].sort();

    it('removes, on a full pass, what the source brought in and no longer lists, through the moderation path', async () => {
      const store = getStore();
      await commit([A, B, C, D]);
      // D came from elsewhere (an import, another source): never the source's to remove.
      expect(await store.sources.reconcile('gbp', listing([A, B], true))).toEqual({
        removed: [],
        restored: [],
        state: null,
      });
      expect(await store.sources.reconcile('gbp', listing([C], false))).toMatchObject({
        removed: [],
      });
      const before = await store.state();
      const dry = await store.sources.reconcile('gbp', listing([A], true, AT, true));
      expect(dry).toEqual({ removed: [B.id, C.id].sort(), restored: [], state: null });
      expect(await store.state()).toEqual(before);
      const done = await store.sources.reconcile('gbp', listing([A], true));
      expect(done).toEqual({
        removed: [B.id, C.id].sort(),
        restored: [],
        state: await store.state(),
      });
      expect(done.state).toMatchObject({ version: before.version + 1, changedAt: AT });
      expect(await published()).toEqual([A.publicJson, D.publicJson].sort());
      const removal: ModerationRecord = {
        reviewId: B.id,
        action: 'hide',
        reason: 'removed at source',
        actor: 'source:gbp',
        at: AT,
      };
      expect(await store.moderation.log(B.id)).toEqual([removal]);
      const feed = await readFeed(store);
      expect(feed.removals.map((r) => [r.id, r.reason, r.removedAt])).toEqual(
        [B.id, C.id].sort().map((id) => [id, 'deleted', AT]),
      );
      // Nothing more to remove: no new version.
      expect((await store.sources.reconcile('gbp', listing([A], true))).state).toBeNull();
    });

    it('publishes again what the source lists again, never what an operator hid', async () => {
      const store = getStore();
      await commit([A, B, C]);
      await store.sources.reconcile('gbp', listing([A, B, C], true));
      await store.sources.reconcile('gbp', listing([A], true));
      // The operator hides C as well: the hide becomes the operator's.
      const hide: ModerationRecord = {
        reviewId: C.id,
        action: 'hide',
        reason: 'spam',
        actor: 'ops',
        at: '2025-03-02T10:00:00.000Z',
      };
      expect((await store.moderation.apply(hide)).status).toBe('changed');
      // Another source listing B does not bring it back; this source listing it again does.
      expect((await store.sources.reconcile('url:x', listing([B], true))).restored).toEqual([]);
      const back = await store.sources.reconcile(
        'gbp',
        listing([A, B, C], false, '2025-03-03T10:00:00.000Z'),
      );
      expect(back).toMatchObject({ removed: [], restored: [B.id] });
      expect(await published()).toEqual([A.publicJson, B.publicJson].sort());
      expect((await store.moderation.log(B.id)).map((r) => [r.action, r.reason])).toEqual([
        ['hide', 'removed at source'],
        ['unhide', 'listed again at source'],
      ]);
      const feed = await readFeed(store);
      expect(feed.removals.map((r) => [r.id, r.reason])).toEqual([[C.id, 'hidden']]);
      expect(feed.seqs[B.id]).toBe(feed.head.lastSeq);
    });

    it('keeps what each source brought in apart, and shares it with another instance', async () => {
      const store = getStore();
      await commit([A, B]);
      await store.sources.reconcile('gbp', listing([A], true));
      await store.sources.reconcile('url:x', listing([B], true));
      const other = await openAnother();
      expect((await other.sources.reconcile('gbp', listing([A], true))).removed).toEqual([]);
      expect((await other.sources.reconcile('url:x', listing([], true))).removed).toEqual([B.id]);
      expect(await published()).toEqual([A.publicJson]);
    });
  });
}
