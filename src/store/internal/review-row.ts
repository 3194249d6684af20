import type { ReviewSource } from '../../domain/review.js';
import type { StoreTransaction, StoredReview } from '../core/types.js';

/** The columns of the reviews table, in `ReviewRow`'s order. */
export const REVIEW_COLUMNS =
  'id, source, source_review_id, source_hash, source_record, public_json, ingested_at, derived_version';

/** A row of the reviews table, as both engines read it (`SELECT ${REVIEW_COLUMNS}`). */
export interface ReviewRow {
  id: string;
  source: string;
  source_review_id: string;
  source_hash: string;
  source_record: string;
  public_json: string;
  ingested_at: string;
  derived_version: number;
}

export function toStored(row: ReviewRow): StoredReview {
  return {
    id: row.id,
    source: row.source,
    sourceReviewId: row.source_review_id,
    sourceHash: row.source_hash,
    sourceRecord: JSON.parse(row.source_record) as ReviewSource,
    publicJson: row.public_json,
    ingestedAt: row.ingested_at,
    derivedVersion: row.derived_version,
  };
}

/**
 * `forEachReview` of both engines: the committed reviews in id order, a page at a time, each page
 * read by `page` (the rows after id `after` whose `derived_version` is below `before`).
 */
export async function forEachPage(
  page: (after: string, before: number) => ReviewRow[] | Promise<ReviewRow[]>,
  fn: Parameters<StoreTransaction['forEachReview']>[1],
  filter: { derivedBefore?: number },
): Promise<void> {
  const before = filter.derivedBefore ?? Number.MAX_SAFE_INTEGER;
  let after = '';
  for (;;) {
    const rows = await page(after, before);
    if (rows.length === 0) return;
    await fn(rows.map(toStored));
    after = rows[rows.length - 1]!.id;
  }
}
