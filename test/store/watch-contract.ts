/**
 * The change-notification part of the Store contract (`ServiceStore.watch`), for the engines that
 * offer it; the others must not. Run by `describeStoreContract` for each engine; not a test file
 * itself.
 */
import { describe, expect, it } from 'vitest';
import { storedRow } from '../helpers/records.js';
import type { Store, StoredReview, WatchEvent } from '../../src/store/index.js';

/** Calls of a `watch` listener, counted and recorded, with a way to wait for the n-th. */
function listenerCalls() {
  let count = 0;
  const events: WatchEvent[] = [];
  const waiting: { n: number; resolve(): void }[] = [];
  return {
    listener(...args: unknown[]) {
      expect(args).toHaveLength(1);
      events.push(args[0] as WatchEvent);
      count++;
      for (const w of waiting.filter((w) => count >= w.n)) {
        waiting.splice(waiting.indexOf(w), 1);
        w.resolve();
      }
    },
    get count() {
      return count;
    },
    events,
    /** Resolves once the listener has been called `n` times in all. */
    reached(n: number): Promise<void> {
      if (count >= n) return Promise.resolve();
      return new Promise((resolve) => waiting.push({ n, resolve }));
    },
  };
}

export function describeWatchContract(
  getStore: () => Store,
  openAnother: () => Promise<Store>,
  watches: boolean,
): void {
  /** Commits rows and a new version in one transaction. */
  const commit = (rows: StoredReview[], changedAt = '2025-01-01T00:00:00.000Z') =>
    getStore().transaction(async (tx) => {
      await tx.upsertReviews(rows);
      return tx.bumpVersion(changedAt);
    });

  describe('change notifications (watch)', () => {
    if (!watches) {
      it('offers no watch: readers of this engine poll the data version', () => {
        expect(getStore().watch).toBeUndefined();
      });
      return;
    }

    it("tells the listeners of another instance 'change' when a change commits, after 'listening'", async () => {
      const other = await openAnother();
      expect(typeof other.watch).toBe('function');
      const calls = listenerCalls();
      const unwatch = other.watch!(calls.listener);
      // Called once when it starts listening: changes committed before may have been missed.
      await calls.reached(1);
      const state = await commit([storedRow('a')], '2025-05-01T00:00:00.000Z');
      await calls.reached(2);
      expect(await other.state()).toEqual(state);
      await getStore().moderation.apply({
        reviewId: storedRow('a').id,
        action: 'hide',
        reason: null,
        actor: 'ops',
        at: '2025-05-02T00:00:00.000Z',
      });
      await calls.reached(3);
      expect((await other.state()).changedAt).toBe('2025-05-02T00:00:00.000Z');
      expect(calls.events).toEqual(['listening', 'change', 'change']);
      unwatch();
    });

    it('stops calling a listener once unwatched, and keeps calling the others', async () => {
      const other = await openAnother();
      const kept = listenerCalls();
      const dropped = listenerCalls();
      const unwatchKept = other.watch!(kept.listener);
      const unwatchDropped = other.watch!(dropped.listener);
      await Promise.all([kept.reached(1), dropped.reached(1)]);
      unwatchDropped();
      await commit([storedRow('a')]);
      // One notification calls every listener still watching, at once.
      await kept.reached(2);
      expect(dropped.count).toBe(1);
      expect(kept.events).toEqual(['listening', 'change']);
      unwatchKept();
    });
  });
}
