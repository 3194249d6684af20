import type { ReviewFacts } from '../../domain/review.js';
import type { Insights } from '../schema.js';

/** Owner response rate and the median hours from a review to its (last edited) response. */
export function ownerResponseStats(reviews: readonly ReviewFacts[]): Insights['ownerResponses'] {
  const hours: number[] = [];
  let responded = 0;
  for (const r of reviews) {
    if (!r.ownerResponse) continue;
    responded++;
    if (r.ownerResponse.dateModified) {
      const h =
        (Date.parse(r.ownerResponse.dateModified) - Date.parse(r.datePublished)) / 3_600_000;
      if (h >= 0) hours.push(h);
    }
  }
  hours.sort((a, b) => a - b);
  const mid = hours.length / 2;
  const median =
    hours.length === 0
      ? null
      : hours.length % 2
        ? hours[Math.floor(mid)]!
        : (hours[mid - 1]! + hours[mid]!) / 2;
  return {
    responded,
    total: reviews.length,
    rate: reviews.length ? Math.round((responded / reviews.length) * 1000) / 1000 : null,
    medianResponseHours: median === null ? null : Math.round(median * 10) / 10,
  };
}
