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

/** Accumulates an aggregate rating one review at a time (from records or from columns). */
export class AggregateBuilder {
  private readonly distribution: Record<Star, number> = { '1': 0, '2': 0, '3': 0, '4': 0, '5': 0 };
  private sum = 0;
  private count = 0;
  private withText = 0;
  private asOf: string | null = null;

  add(rating: number, hasText: boolean, dateModified: string): void {
    this.addRating(rating, hasText);
    this.addModified(dateModified);
  }

  /** Counts one review's rating (its `dateModified` given apart, or only the latest one's). */
  addRating(rating: number, hasText: boolean): void {
    this.distribution[String(rating) as Star] += 1;
    this.sum += rating;
    this.count += 1;
    if (hasText) this.withText += 1;
  }

  addModified(dateModified: string): void {
    if (this.asOf === null || dateModified > this.asOf) this.asOf = dateModified;
  }

  result(): AggregateRating {
    const n = this.count;
    return {
      ratingValue: n === 0 ? null : round2(this.sum / n),
      ratingCount: n,
      reviewCount: this.withText,
      bestRating: 5,
      worstRating: 1,
      distribution: { ...this.distribution },
      asOf: this.asOf,
    };
  }
}

/** Computes the aggregate rating of a set of reviews. */
export function computeAggregate(
  reviews: readonly Pick<Review, 'reviewRating' | 'reviewBody' | 'dateModified'>[],
): AggregateRating {
  const builder = new AggregateBuilder();
  for (const r of reviews) {
    builder.add(r.reviewRating.ratingValue, r.reviewBody !== null, r.dateModified);
  }
  return builder.result();
}
