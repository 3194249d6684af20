/**
 * The source-runs part of the Store contract: the lease on a configured review source and the
 * outcome of its runs, through `store.sources` only. Run by `describeStoreContract` for each
 * engine; not a test file itself.
 */
import { describe, expect, it } from 'vitest';
import type { Store } from '../../src/store/index.js';

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
}
