import { z } from 'zod';
import { isCalendarDate, normalizeInstant } from './dates.js';

export const SOURCES = [
  'google',
  'dealerrater',
  'yelp',
  'trustpilot',
  'facebook',
  'cars-com',
  'first-party',
  'other',
] as const;
export const Source = z.enum(SOURCES);
export type Source = z.infer<typeof Source>;

export const DEPARTMENTS = [
  'sales',
  'sales-new',
  'sales-used',
  'service',
  'parts',
  'body-shop',
  'lease',
  'finance',
  'other',
] as const;
export const Department = z.enum(DEPARTMENTS);
export type Department = z.infer<typeof Department>;

export const VERIFICATION_LEVELS = [
  'transaction-matched',
  'source-confirmed',
  'unverified',
] as const;

/** Limits on imported text; larger values are rejected rows, not truncated. */
export const LIMITS = {
  body: 20_000,
  title: 500,
  authorName: 200,
  ownerResponse: 20_000,
  sourceReviewId: 300,
} as const;

/** A calendar date written `YYYY-MM-DD` that exists (2024-02-30 does not). */
export const CalendarDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date written YYYY-MM-DD')
  .refine(isCalendarDate, 'is not a real calendar date');

/** An RFC 3339 instant with offset, normalised to UTC (`...Z`, millisecond precision). */
export const Instant = z.string().transform((value, ctx) => {
  const normalized = normalizeInstant(value);
  if (normalized === null) {
    ctx.addIssue({ code: 'custom', message: 'must be an RFC 3339 timestamp with offset' });
    return z.NEVER;
  }
  return normalized;
});

export const RatingValue = z.number().int().min(1).max(5);
const SubRating = RatingValue.nullable().default(null);

export const SubRatings = z.object({
  customerService: SubRating,
  quality: SubRating,
  friendliness: SubRating,
  pricing: SubRating,
  overallExperience: SubRating,
});
export type SubRatings = z.infer<typeof SubRatings>;

/**
 * Control characters no review text holds on purpose: C0 but tab, line feed and carriage return,
 * DEL and C1 (a NUL or an ESC from a broken export would reach every feed, page and terminal).
 */
// eslint-disable-next-line no-control-regex
const CONTROLS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/g;

/** A text with the control characters of `CONTROLS` removed (tab and line breaks are kept). */
export function withoutControls(text: string): string {
  return text.replace(CONTROLS, '');
}

/** A name on one line: the control characters removed, tabs and line breaks made spaces. */
export function oneLineName(text: string): string {
  return withoutControls(text).replace(/[\t\n\r]+/g, ' ');
}

export const OwnerResponse = z.object({
  text: z.string().overwrite(withoutControls).trim().min(1).max(LIMITS.ownerResponse),
  dateModified: Instant.nullable().default(null),
});
export type OwnerResponse = z.infer<typeof OwnerResponse>;

export const TechnicianMention = z.object({
  name: z.string().min(1).max(200),
  role: z.string().nullable().default(null),
  /** `tagged`: the source tagged the employee; `free-text`: the source's employee-name field; `text-match`: found in the review text against the roster. */
  via: z.enum(['tagged', 'free-text', 'text-match']),
  rating: RatingValue.nullable().default(null),
});
export type TechnicianMention = z.infer<typeof TechnicianMention>;

/** A staff member a source names on a review (DealerRater `Employees[]` or `EmployeeNames`). */
export const TaggedStaff = z.object({
  name: z.string().overwrite(oneLineName).trim().min(1).max(200),
  via: z.enum(['tagged', 'free-text']).default('tagged'),
  rating: RatingValue.nullable().default(null),
});
export type TaggedStaff = z.infer<typeof TaggedStaff>;

const nullableText = (max: number, clean: (text: string) => string = withoutControls) =>
  z
    .string()
    .overwrite(clean)
    .max(max, `must be at most ${max} characters`)
    .nullable()
    .default(null)
    .transform((s) => (s === null || s.trim() === '' ? null : s.trim()));

/**
 * One review as an import format hands it over: the source-synced fields, in the public names.
 * Derived fields (`id`, `date`, `mentions`) are computed from it by the ingest step. Every importer
 * validates its rows with this schema plus the plausible-dates rule (`reviewSourceAsOf`), so a row
 * that passes is publishable.
 */
export const ReviewSource = z.object({
  source: Source,
  sourceReviewId: z.string().trim().min(1).max(LIMITS.sourceReviewId),
  sourceUrl: z
    .url({ protocol: /^https?$/ })
    .nullable()
    .default(null),
  reviewRating: z.object({ ratingValue: RatingValue }),
  name: nullableText(LIMITS.title, oneLineName),
  reviewBody: nullableText(LIMITS.body),
  reviewBodyTranslated: nullableText(LIMITS.body),
  inLanguage: z
    .string()
    .regex(/^[a-zA-Z]{2,3}(-[a-zA-Z0-9]{2,8})*$/, 'must be a BCP 47 language tag')
    .nullable()
    .default(null),
  author: z.object({
    name: z.string().overwrite(oneLineName).trim().min(1).max(LIMITS.authorName),
  }),
  datePublished: Instant,
  dateModified: Instant.nullable().default(null),
  department: Department.nullable().default(null),
  subRatings: SubRatings.nullable().default(null),
  recommendsDealer: z.boolean().nullable().default(null),
  taggedStaff: z.array(TaggedStaff).max(50).default([]),
  ownerResponse: OwnerResponse.nullable().default(null),
  verification: z
    .object({ level: z.enum(VERIFICATION_LEVELS), checkedAt: Instant })
    .nullable()
    .default(null),
});
export type ReviewSource = z.infer<typeof ReviewSource>;
export type ReviewSourceInput = z.input<typeof ReviewSource>;

/** The public review record, as every endpoint, feed and MCP tool serialises it. */
export const Review = z.object({
  id: z.uuid(),
  reviewRating: z.object({
    ratingValue: RatingValue,
    bestRating: z.literal(5),
    worstRating: z.literal(1),
  }),
  name: z.string().nullable(),
  reviewBody: z.string().nullable(),
  reviewBodyTranslated: z.string().nullable(),
  inLanguage: z.string().nullable(),
  author: z.object({ name: z.string() }),
  date: CalendarDate,
  datePublished: z.string(),
  dateModified: z.string(),
  source: Source,
  sourceReviewId: z.string(),
  sourceUrl: z.string().nullable(),
  department: Department.nullable(),
  subRatings: SubRatings.nullable(),
  recommendsDealer: z.boolean().nullable(),
  mentions: z.object({
    technicians: z.array(TechnicianMention),
    services: z.array(z.string()),
  }),
  ownerResponse: z.object({ text: z.string(), dateModified: z.string().nullable() }).nullable(),
  verification: z.object({ level: z.enum(VERIFICATION_LEVELS), checkedAt: z.string() }),
});
export type Review = z.infer<typeof Review>;

/**
 * What the insights read of a review. They are computed after a version goes live, from facts
 * parsed again from its `/reviews.json` body (`FactsReader`); a full `Review` is one too.
 */
export interface ReviewFacts extends Pick<
  Review,
  | 'id'
  | 'reviewRating'
  | 'name'
  | 'reviewBody'
  | 'date'
  | 'datePublished'
  | 'department'
  | 'mentions'
> {
  readonly ownerResponse: { readonly dateModified: string | null } | null;
}

/** What the search index and the staff and service figures read of a review. */
export interface IndexedFacts extends ReviewFacts, Pick<Review, 'dateModified' | 'source'> {}

const NO_MENTIONS: Review['mentions'] = Object.freeze({
  technicians: Object.freeze([]) as unknown as Review['mentions']['technicians'],
  services: Object.freeze([]) as unknown as string[],
}) as Review['mentions'];

/**
 * Makes the facts of many reviews, sharing what repeats among them: dates, departments, names of
 * staff and services, ratings, and empty mentions (at 100,000 reviews, 55 MB of heap instead of
 * 78 MB, texts included).
 */
export class FactsReader {
  private readonly strings = new Map<string, string>();
  private readonly ratings = new Map<number, Review['reviewRating']>();

  private shared<T extends string | null>(value: T): T {
    if (value === null) return value;
    const hit = this.strings.get(value);
    if (hit !== undefined) return hit as T;
    this.strings.set(value, value);
    return value;
  }

  /** The facts of a review, and nothing else (a new object: the rest can be collected). */
  facts(r: Review): ReviewFacts {
    let rating = this.ratings.get(r.reviewRating.ratingValue);
    if (!rating) {
      rating = r.reviewRating;
      this.ratings.set(rating.ratingValue, rating);
    }
    const { technicians, services } = r.mentions;
    return {
      id: r.id,
      reviewRating: rating,
      name: r.name,
      reviewBody: r.reviewBody,
      date: this.shared(r.date),
      datePublished: r.datePublished,
      department: this.shared(r.department),
      mentions:
        technicians.length === 0 && services.length === 0
          ? NO_MENTIONS
          : {
              technicians: technicians.map((t) => ({
                name: this.shared(t.name),
                role: this.shared(t.role),
                via: this.shared(t.via),
                rating: t.rating,
              })),
              services: services.map((id) => this.shared(id)),
            },
      ownerResponse: r.ownerResponse && { dateModified: r.ownerResponse.dateModified },
    };
  }
}
