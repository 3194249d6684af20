import type { ReviewSource } from '../../domain/review.js';
import type { StoredReview } from '../core/types.js';

/** A row of the reviews table, as both engines read it. */
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
