import type { Business } from '../domain/business.js';
import type { ReviewSource } from '../domain/review.js';
import { setTimeout as delay } from 'node:timers/promises';
import { compileMentionMatcher } from '../mentions/index.js';
import { isServiceError } from '../platform/errors.js';
import {
  CONCURRENT_CHANGE,
  reviewKey,
  type DataState,
  type ReviewKey,
  type Store,
  type StoreTransaction,
  type StoredReview,
} from '../store/index.js';
import { DERIVATION_VERSION, deriveReview, type DeriveContext } from './derive.js';

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

/** Validated rows handed over in batches, so a large import never sits in memory at once. */
export type ReviewBatches =
  AsyncIterable<readonly ReviewSource[]> | Iterable<readonly ReviewSource[]>;

export interface IngestStreamInput {
  /** A new business profile (roster and catalogue included); re-derives every stored review. */
  business?: Business;
  /** Called inside the transaction with the business in force (new or stored); yields the rows. */
  batches: (business: Business | null) => ReviewBatches;
  /** Remove stored reviews of the sources present in the input that the input does not hold. */
  prune?: boolean;
  /** Reviews the input holds but did not import (rejected rows): kept by `prune`. */
  alsoPresent?: () => Iterable<ReviewKey>;
  /** The commit time; defaults to now. */
  now?: string;
  /** Called after each batch is written (inside the transaction) with the counts so far. */
  onBatch?: (result: Readonly<IngestResult>, rows: number) => void | Promise<void>;
  /** Called just before commit; throwing here rolls the whole import back. */
  beforeCommit?: (result: Readonly<IngestResult>) => void;
}

const BATCH = 1000;

/**
 * Derives stored records again (all of them, or only those an older derivation produced) and
 * writes those that differ, or whose version is older; returns how many public records changed.
 */
async function rederive(
  tx: StoreTransaction,
  ctx: DeriveContext,
  filter: { derivedBefore?: number } = {},
): Promise<number> {
  let changed = 0;
  await tx.forEachReview(
    BATCH,
    async (page) => {
      const updates: StoredReview[] = [];
      for (const row of page) {
        const next = deriveReview(row.sourceRecord, ctx, row);
        if (next.publicJson !== row.publicJson) changed++;
        if (next.publicJson !== row.publicJson || row.derivedVersion !== next.derivedVersion)
          updates.push(next);
      }
      await tx.upsertReviews(updates);
    },
    filter,
  );
  return changed;
}

async function writeBatch(
  tx: StoreTransaction,
  ctx: DeriveContext,
  batch: readonly ReviewSource[],
  result: IngestResult,
): Promise<void> {
  const existing = await tx.getReviews(batch);
  const writes: StoredReview[] = [];
  for (const source of batch) {
    const previous = existing.get(reviewKey(source.source, source.sourceReviewId));
    const next = deriveReview(source, ctx, previous);
    if (!previous) result.inserted++;
    else if (previous.sourceHash !== next.sourceHash) result.updated++;
    else if (previous.publicJson !== next.publicJson) {
      // Same source fields, but the derivation (matcher, time zone) gives a different record.
      result.rederived++;
    } else if (previous.derivedVersion !== next.derivedVersion) {
      // The same record from newer code: only its version is recorded.
      result.unchanged++;
    } else {
      result.unchanged++;
      continue;
    }
    writes.push(next);
  }
  await tx.upsertReviews(writes);
}

function changeCount(r: IngestResult): number {
  return r.inserted + r.updated + r.pruned + r.rederived + (r.businessChanged ? 1 : 0);
}

/**
 * Writes validated reviews (and optionally a business profile) in one transaction, keyed on
 * (source, sourceReviewId), taking the rows batch by batch. Unchanged rows are left alone; when
 * nothing changes at all the data version does not move, so ETags stay and no change is
 * announced. Anything thrown (by the batches, `onBatch` or `beforeCommit`) rolls everything back.
 */
export async function ingestStream(store: Store, input: IngestStreamInput): Promise<IngestResult> {
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
      result.rederived = await rederive(tx, ctx);
    } else {
      // Records derived by older code are derived again by every import.
      result.rederived = await rederive(tx, ctx, { derivedBefore: DERIVATION_VERSION });
    }
    const sources = new Set<string>();
    const keep = new Set<string>();
    let rows = 0;
    for await (const batch of input.batches(business)) {
      if (input.prune) {
        for (const r of batch) {
          sources.add(r.source);
          keep.add(reviewKey(r.source, r.sourceReviewId));
        }
      }
      await writeBatch(tx, ctx, batch, result);
      rows += batch.length;
      await input.onBatch?.(result, rows);
    }
    if (input.prune) {
      for (const k of input.alsoPresent?.() ?? []) {
        sources.add(k.source);
        keep.add(reviewKey(k.source, k.sourceReviewId));
      }
      result.pruned = await tx.pruneReviews([...sources], keep);
    }
    input.beforeCommit?.(result);
    if (changeCount(result) > 0) result.state = await tx.bumpVersion(now);
    return result;
  });
}

function* chunks<T>(items: readonly T[], size: number): Generator<readonly T[]> {
  for (let start = 0; start < items.length; start += size) yield items.slice(start, start + size);
}

/**
 * Writes a batch of validated reviews (and optionally a business profile) in one transaction,
 * keyed on (source, sourceReviewId). Unchanged rows are left alone; when nothing changes at all,
 * the data version does not move, so ETags stay and no change is announced.
 */
export async function ingest(store: Store, input: IngestInput): Promise<IngestResult> {
  const total = input.reviews.length;
  return ingestStream(store, {
    business: input.business,
    batches: () => chunks(input.reviews, BATCH),
    prune: input.prune,
    now: input.now,
    onBatch: (_result, rows) => input.onProgress?.(rows, total),
  });
}

/** How many times `retryConcurrentChanges` runs its work in all, by default. */
export const CONCURRENT_CHANGE_ATTEMPTS = 5;

/**
 * Runs `attempt`, and runs it again (after a short, random pause) when it fails with
 * `concurrent_change`: another writer committed meanwhile and nothing was written, so
 * `attempt`, which decides afresh what to write (another process may have done the work), starts
 * from what is committed now. Gives up after `attempts` runs in all, with the last
 * `concurrent_change`; `onRetry` is told before each new run.
 */
export async function retryConcurrentChanges<T>(
  attempt: () => Promise<T>,
  options: { attempts?: number; onRetry?: (failures: number) => void } = {},
): Promise<T> {
  const attempts = options.attempts ?? CONCURRENT_CHANGE_ATTEMPTS;
  for (let failures = 0; ;) {
    try {
      return await attempt();
    } catch (err) {
      if (!isServiceError(err, CONCURRENT_CHANGE) || ++failures >= attempts) throw err;
      options.onRetry?.(failures);
      // Apart, so that writers that collided do not collide again at once.
      await delay(50 + Math.random() * 200 * failures);
    }
  }
}

/**
 * Derives again, in one transaction, the stored records that older code produced
 * (`DERIVATION_VERSION`), so that none of them is published: the service runs it before it builds
 * a data version. Resolves with the new data state when a public record changed, else `null`
 * (also when another process, an instance started at the same time or an import, derived them
 * first: a transaction that collides with another writer looks again, see
 * `retryConcurrentChanges`).
 */
export function refreshDerivations(store: Store): Promise<DataState | null> {
  return retryConcurrentChanges(async () => {
    if ((await store.countDerivedBefore(DERIVATION_VERSION)) === 0) return null;
    return (await ingestStream(store, { batches: () => [] })).state;
  });
}
