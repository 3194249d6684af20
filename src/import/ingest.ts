import type { Business } from '../domain/business.js';
import type { ReviewSource } from '../domain/review.js';
import { compileMentionMatcher } from '../mentions/index.js';
import { reviewKey, type DataState, type Store, type StoredReview } from '../store/index.js';
import { deriveReview, type DeriveContext } from './derive.js';

export interface IngestInput {
  /** A new business profile (roster and catalogue included); re-derives every stored review. */
  business?: Business;
  /** Validated rows, at most one per (source, sourceReviewId). */
  reviews: readonly ReviewSource[];
  /** Remove stored reviews of the sources present in `reviews` that the input does not hold. */
  prune?: boolean;
  /** The commit time; defaults to now. */
  now?: string;
  onProgress?: (done: number, total: number) => void;
}

export interface IngestResult {
  inserted: number;
  updated: number;
  unchanged: number;
  pruned: number;
  /** Stored reviews whose public record changed because the roster or catalogue changed. */
  rederived: number;
  businessChanged: boolean;
  /** The new data version, or `null` when nothing changed (no new ETag, no notification). */
  state: DataState | null;
}

const BATCH = 1000;

async function rederiveAll(
  tx: Parameters<Parameters<Store['transaction']>[0]>[0],
  ctx: DeriveContext,
): Promise<number> {
  let changed = 0;
  await tx.forEachReview(BATCH, async (page) => {
    const updates: StoredReview[] = [];
    for (const row of page) {
      const next = deriveReview(row.sourceRecord, ctx, row);
      if (next.publicJson !== row.publicJson) updates.push(next);
    }
    changed += updates.length;
    await tx.upsertReviews(updates);
  });
  return changed;
}

/**
 * Writes a batch of validated reviews (and optionally a business profile) in one transaction,
 * keyed on (source, sourceReviewId). Unchanged rows are left alone; when nothing changes at all,
 * the data version does not move, so ETags stay and no change is announced.
 */
export async function ingest(store: Store, input: IngestInput): Promise<IngestResult> {
  const now = input.now ?? new Date().toISOString();
  return store.transaction(async (tx) => {
    const current = await tx.getBusiness();
    const businessChanged =
      input.business !== undefined && JSON.stringify(input.business) !== JSON.stringify(current);
    const business = input.business ?? current;
    const ctx: DeriveContext = { business, matcher: compileMentionMatcher(business), now };
    const result: IngestResult = {
      inserted: 0,
      updated: 0,
      unchanged: 0,
      pruned: 0,
      rederived: 0,
      businessChanged,
      state: null,
    };
    if (businessChanged && input.business) {
      await tx.putBusiness(input.business);
      result.rederived = await rederiveAll(tx, ctx);
    }
    const total = input.reviews.length;
    for (let start = 0; start < total; start += BATCH) {
      const batch = input.reviews.slice(start, start + BATCH);
      const existing = await tx.getReviews(batch);
      const writes: StoredReview[] = [];
      for (const source of batch) {
        const previous = existing.get(reviewKey(source.source, source.sourceReviewId));
        const next = deriveReview(source, ctx, previous);
        if (!previous) result.inserted++;
        else if (previous.sourceHash !== next.sourceHash) result.updated++;
        else {
          result.unchanged++;
          continue;
        }
        writes.push(next);
      }
      await tx.upsertReviews(writes);
      input.onProgress?.(Math.min(start + BATCH, total), total);
    }
    if (input.prune) {
      const sources = [...new Set(input.reviews.map((r) => r.source))];
      const keep = new Set(input.reviews.map((r) => reviewKey(r.source, r.sourceReviewId)));
      result.pruned = await tx.pruneReviews(sources, keep);
    }
    const changes =
      result.inserted +
      result.updated +
      result.pruned +
      result.rederived +
      (businessChanged ? 1 : 0);
    if (changes > 0) result.state = await tx.bumpVersion(now);
    return result;
  });
}
