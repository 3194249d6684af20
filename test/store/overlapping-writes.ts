import type { DataState, Store } from '../../src/store/index.js';
import { storedRow } from '../helpers/records.js';

/**
 * Two write transactions that truly overlap: `first` writes review `slow` and holds its
 * transaction open while `second` writes review `quick` and commits; then `first` goes on to
 * commit. Returns `first`'s transaction (settled later: the store may refuse it) and what
 * `second` committed.
 */
export async function overlappingWrites(
  first: Store,
  second: Store,
): Promise<{ slow: Promise<void>; quick: DataState }> {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  let wrote!: () => void;
  const written = new Promise<void>((resolve) => (wrote = resolve));
  const slow = first.transaction(async (tx) => {
    await tx.upsertReviews([storedRow('slow')]);
    wrote();
    await held;
    await tx.bumpVersion('2030-01-01T00:00:00.000Z');
  });
  // Its outcome is the caller's to assert; until then it is not an unhandled rejection.
  slow.catch(() => undefined);
  // The other change commits only once this transaction has written, so they truly overlap.
  await written;
  const quick = await second.transaction(async (tx) => {
    await tx.upsertReviews([storedRow('quick')]);
    return tx.bumpVersion('2030-01-02T00:00:00.000Z');
  });
  release();
  return { slow, quick };
}
