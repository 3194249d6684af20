import type { Review } from './review.js';

/**
 * Serialises a public review with a fixed key order, so equal records give equal bytes (and equal
 * ETags) on every instance.
 */
export function serializeReview(r: Review): string {
  const ordered: Review = {
    id: r.id,
    reviewRating: {
      ratingValue: r.reviewRating.ratingValue,
      bestRating: 5,
      worstRating: 1,
    },
    name: r.name,
    reviewBody: r.reviewBody,
    reviewBodyTranslated: r.reviewBodyTranslated,
    inLanguage: r.inLanguage,
    author: { name: r.author.name },
    date: r.date,
    datePublished: r.datePublished,
    dateModified: r.dateModified,
    source: r.source,
    sourceReviewId: r.sourceReviewId,
    sourceUrl: r.sourceUrl,
    department: r.department,
    subRatings: r.subRatings && {
      customerService: r.subRatings.customerService,
      quality: r.subRatings.quality,
      friendliness: r.subRatings.friendliness,
      pricing: r.subRatings.pricing,
      overallExperience: r.subRatings.overallExperience,
    },
    recommendsDealer: r.recommendsDealer,
    mentions: {
      technicians: r.mentions.technicians.map((t) => ({
        name: t.name,
        role: t.role,
        via: t.via,
        rating: t.rating,
      })),
      services: [...r.mentions.services],
    },
    ownerResponse: r.ownerResponse && {
      text: r.ownerResponse.text,
      dateModified: r.ownerResponse.dateModified,
    },
    verification: { level: r.verification.level, checkedAt: r.verification.checkedAt },
  };
  return JSON.stringify(ordered);
}
