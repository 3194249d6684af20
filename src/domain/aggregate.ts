import type { Review } from './review.js';

export type Star = '1' | '2' | '3' | '4' | '5';

export interface AggregateRating {
  /** Arithmetic mean of every rating, rounded to 2 decimals; `null` when there is none. */
  ratingValue: number | null;
  /** Every rating, rating-only reviews included. */
  ratingCount: number;
  /** Ratings that come with review text; never more than `ratingCount`. */
  reviewCount: number;
  bestRating: 5;
  worstRating: 1;
  /** Count per star; the counts sum to `ratingCount`. */
  distribution: Record<Star, number>;
  /** RFC 3339: the newest `dateModified` among the reviews, `null` when there is none. */
  asOf: string | null;
}

/** Rounds half away from zero to 2 decimals, without binary floating-point surprises. */
export function round2(value: number): number {
  return Math.round((value + Number.EPSILON) * 100) / 100;
}

/** Computes the aggregate rating of a set of reviews. */
export function computeAggregate(reviews: readonly Review[]): AggregateRating {
  const distribution: Record<Star, number> = { '1': 0, '2': 0, '3': 0, '4': 0, '5': 0 };
  let sum = 0;
  let withText = 0;
  let asOf: string | null = null;
  for (const r of reviews) {
    const v = r.reviewRating.ratingValue;
    distribution[String(v) as Star] += 1;
    sum += v;
    if (r.reviewBody !== null) withText += 1;
    if (asOf === null || r.dateModified > asOf) asOf = r.dateModified;
  }
  const n = reviews.length;
  return {
    ratingValue: n === 0 ? null : round2(sum / n),
    ratingCount: n,
    reviewCount: withText,
    bestRating: 5,
    worstRating: 1,
    distribution,
    asOf,
  };
}
