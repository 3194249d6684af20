import { createHash } from 'node:crypto';
import type { Business } from '../domain/business.js';
import { FALLBACK_TIME_ZONE, localDate } from '../domain/dates.js';
import { sameAuthoredContent } from '../domain/edits.js';
import { reviewId } from '../domain/ids.js';
import { detectLanguage } from '../domain/language.js';
import type { Review, ReviewSource } from '../domain/review.js';
import { serializeReview } from '../domain/serialize.js';
import type { MentionMatcher } from '../mentions/index.js';
import type { StoredReview } from '../store/index.js';

/** Hash of a review's source fields: equal hashes mean re-importing it changes nothing. */
export function hashSource(source: ReviewSource): string {
  return createHash('sha256').update(JSON.stringify(source)).digest('base64url');
}

/**
 * The version of the derivation: bump it whenever `deriveReview` gives a different public record
 * for the same source fields and business (a new field, another date rule, a better mention
 * matcher, a change of serialisation). Stored records carry the version that derived them; records
 * of an older version are derived again, by the service before it publishes and by every import,
 * so a record the current code would not produce is never served. `derive.test.ts` fails when the
 * output changes and this number does not.
 */
export const DERIVATION_VERSION = 1;

/** The time zone used when no business profile has been imported yet (it lives in domain/dates). */
export { FALLBACK_TIME_ZONE };

export interface DeriveContext {
  business: Business | null;
  matcher: MentionMatcher;
  now: string;
}

/**
 * Derives the public review record from its source fields. `previous` is the stored version of
 * the same review, if any: its first-seen verification time is kept, and `dateModified` moves to
 * `now` when the source itself gives no modification time but what the reviewer wrote changed
 * (`sameAuthoredContent`: a new reply, verification or department is no edit of the review).
 */
export function deriveReview(
  source: ReviewSource,
  ctx: DeriveContext,
  previous?: StoredReview,
): StoredReview {
  const sourceHash = hashSource(source);
  const prior = previous ? (JSON.parse(previous.publicJson) as Review) : undefined;
  const timeZone = ctx.business?.timeZone ?? FALLBACK_TIME_ZONE;
  const edited =
    previous !== undefined &&
    previous.sourceHash !== sourceHash &&
    !sameAuthoredContent(previous.sourceRecord, source);
  let dateModified = source.dateModified ?? prior?.dateModified ?? source.datePublished;
  if (source.dateModified === null && edited) dateModified = ctx.now;
  if (dateModified < source.datePublished) dateModified = source.datePublished;

  const review: Review = {
    id: reviewId(source.source, source.sourceReviewId),
    reviewRating: { ratingValue: source.reviewRating.ratingValue, bestRating: 5, worstRating: 1 },
    name: source.name,
    reviewBody: source.reviewBody,
    reviewBodyTranslated: source.reviewBodyTranslated,
    inLanguage: source.inLanguage ?? detectLanguage(source.reviewBody),
    author: { name: source.author.name },
    date: localDate(source.datePublished, timeZone),
    datePublished: source.datePublished,
    dateModified,
    source: source.source,
    sourceReviewId: source.sourceReviewId,
    sourceUrl: source.sourceUrl,
    department: source.department,
    subRatings: source.subRatings,
    recommendsDealer: source.recommendsDealer,
    mentions: ctx.matcher.match(source, source.taggedStaff),
    ownerResponse: source.ownerResponse,
    verification: source.verification ??
      prior?.verification ?? { level: 'source-confirmed', checkedAt: ctx.now },
  };
  return {
    id: review.id,
    source: source.source,
    sourceReviewId: source.sourceReviewId,
    sourceHash,
    sourceRecord: source,
    publicJson: serializeReview(review),
    ingestedAt: previous?.ingestedAt ?? ctx.now,
    derivedVersion: DERIVATION_VERSION,
  };
}
