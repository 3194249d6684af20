import { createHash } from 'node:crypto';
import { reviewId } from '../../src/domain/ids.js';
import type { Department, Review, ReviewSource, Source } from '../../src/domain/review.js';
import { serializeReview } from '../../src/domain/serialize.js';
import { DERIVATION_VERSION } from '../../src/import/index.js';
import type { StoredReview } from '../../src/store/index.js';

/** The fields a test sets on a public review record; the rest get plain defaults. */
export interface ReviewSpec {
  /** The source review id (the public `id` derives from it and `source`). */
  key: string;
  source?: Source;
  rating?: number;
  /** Local date `YYYY-MM-DD`. */
  date?: string;
  /** Defaults to noon UTC of `date`. */
  datePublished?: string;
  title?: string | null;
  body?: string | null;
  technicians?: string[];
  services?: string[];
  department?: Department | null;
  ownerResponse?: Review['ownerResponse'];
}

/** A public review record (the shape every endpoint serves), built from a few fields. */
export function reviewRecord(spec: ReviewSpec): Review {
  const source = spec.source ?? 'google';
  const date = spec.date ?? '2025-01-01';
  const datePublished = spec.datePublished ?? `${date}T12:00:00.000Z`;
  return {
    id: reviewId(source, spec.key),
    reviewRating: { ratingValue: spec.rating ?? 5, bestRating: 5, worstRating: 1 },
    name: spec.title ?? null,
    reviewBody: spec.body === undefined ? 'Fine.' : spec.body,
    reviewBodyTranslated: null,
    inLanguage: 'en',
    author: { name: `Author of ${spec.key}` },
    date,
    datePublished,
    dateModified: datePublished,
    source,
    sourceReviewId: spec.key,
    sourceUrl: null,
    department: spec.department ?? null,
    subRatings: null,
    recommendsDealer: null,
    mentions: {
      technicians: (spec.technicians ?? []).map((name) => ({
        name,
        role: null,
        via: 'text-match' as const,
        rating: null,
      })),
      services: spec.services ?? [],
    },
    ownerResponse: spec.ownerResponse ?? null,
    verification: { level: 'source-confirmed', checkedAt: datePublished },
  };
}

/** A review source row (what an import hands to the store), with defaults. */
export function sourceRow(
  key: string,
  over: Partial<ReviewSource> = {},
  source: Source = 'google',
): ReviewSource {
  return {
    source,
    sourceReviewId: key,
    sourceUrl: null,
    reviewRating: { ratingValue: 5 },
    name: null,
    reviewBody: `Review ${key}.`,
    reviewBodyTranslated: null,
    inLanguage: null,
    author: { name: `Author ${key}` },
    datePublished: '2025-01-01T12:00:00.000Z',
    dateModified: null,
    department: null,
    subRatings: null,
    recommendsDealer: null,
    taggedStaff: [],
    ownerResponse: null,
    verification: null,
    ...over,
  };
}

/** A stored review row as the store keeps it, derived plainly from a source row. */
export function storedRow(
  key: string,
  over: Partial<ReviewSource> = {},
  source: Source = 'google',
): StoredReview {
  const row = sourceRow(key, over, source);
  const review = reviewRecord({
    key,
    source,
    rating: row.reviewRating.ratingValue,
    date: row.datePublished.slice(0, 10),
    datePublished: row.datePublished,
    title: row.name,
    body: row.reviewBody,
  });
  return {
    id: review.id,
    source,
    sourceReviewId: key,
    sourceHash: createHash('sha256').update(JSON.stringify(row)).digest('base64url'),
    sourceRecord: row,
    derivedVersion: DERIVATION_VERSION,
    publicJson: serializeReview(review),
    ingestedAt: '2025-01-02T00:00:00.000Z',
  };
}
