import { z } from 'zod';
import { PostalAddress, StaffRole } from './business.js';
import { Review } from './review.js';

/** The business record as `/reviews.json` and `get_business` publish it. */
export const PublicBusiness = z.object({
  id: z.string(),
  name: z.string(),
  legalName: z.string().nullable(),
  url: z.string(),
  telephone: z.string().nullable(),
  address: PostalAddress,
  geo: z.object({ latitude: z.number(), longitude: z.number() }).nullable(),
  timeZone: z.string().describe('IANA time zone; review `date`s are calendar dates in it.'),
  brands: z.array(z.string()),
  sameAs: z.array(z.string()),
  departments: z.array(
    z.object({ id: z.string(), name: z.string(), telephone: z.string().optional() }),
  ),
  staff: z.array(z.object({ name: z.string(), role: StaffRole, active: z.boolean() })),
  services: z.array(z.object({ id: z.string(), name: z.string(), synonyms: z.array(z.string()) })),
});
export type PublicBusiness = z.infer<typeof PublicBusiness>;

const count = z.number().int().min(0);

export const AggregateRatingSchema = z.object({
  ratingValue: z
    .number()
    .nullable()
    .describe('Mean of all ratings, 2 decimals; null when there is none.'),
  ratingCount: count.describe('Every rating, rating-only reviews included.'),
  reviewCount: count.describe('Ratings with review text.'),
  bestRating: z.literal(5),
  worstRating: z.literal(1),
  distribution: z
    .object({ '1': count, '2': count, '3': count, '4': count, '5': count })
    .describe('Count per star; sums to ratingCount.'),
  asOf: z.string().nullable().describe('Newest dateModified among the reviews (RFC 3339).'),
});

export const ReviewsDocument = z.object({
  business: PublicBusiness.nullable(),
  aggregateRating: AggregateRatingSchema,
  reviews: z.array(Review).describe('Every published review, newest first.'),
});

export const SearchResponse = z.object({
  count: count.describe('Reviews in this response.'),
  total: count.describe('All matches before the limit.'),
  limit: z.number().int(),
  reviews: z.array(Review).describe('Matches, newest first (date, then datePublished, then id).'),
});

export const SinceResponse = z.object({
  since: z.string(),
  count: count,
  reviews: z.array(Review).describe('Reviews dated on or after `since`, oldest first.'),
});

const seq = z
  .number()
  .int()
  .min(1)
  .describe(
    'Sequence number of the change in this store: increasing along the feed; a review appears once, at its latest change.',
  );

export const ChangesResponse = z.object({
  changes: z
    .array(
      z.discriminatedUnion('type', [
        z.object({
          seq,
          type: z.literal('upsert'),
          review: Review.describe(
            'The review as it is published now, exactly as /reviews.json has it.',
          ),
        }),
        z.object({
          seq,
          type: z.literal('removal'),
          id: z.string().describe('The id of the review that is no longer published.'),
          removedAt: z.string().describe('When it was removed (RFC 3339).'),
          reason: z
            .enum(['deleted', 'hidden'])
            .describe('`deleted`: no longer in its source; `hidden`: taken down by the operator.'),
        }),
      ]),
    )
    .describe('The changes after `after`, in commit order (sequence numbers ascending).'),
  nextCursor: z
    .string()
    .describe(
      'Where to continue: pass it as `after` (also when `more` is false, to poll for new changes).',
    ),
  more: z.boolean().describe('Whether further changes follow at once.'),
});

export const ErrorResponse = z.object({
  error: z
    .string()
    .describe('Machine-readable code: invalid_request, not_found, method_not_allowed, ...'),
  message: z.string(),
  issues: z
    .array(
      z.object({
        path: z.array(z.union([z.string(), z.number()])).describe('The offending parameter.'),
        code: z.string(),
        message: z.string(),
      }),
    )
    .optional(),
});
