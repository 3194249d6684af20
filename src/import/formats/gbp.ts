import { parseSpan, scanJsonRoot, type JsonSpan } from '../internal/json-scan.js';
import { fileError, type TextDocument } from '../internal/text.js';
import {
  asRecord,
  parseDateTime,
  parseOptionalDateTime,
  parseStarWord,
  pick,
  text,
} from '../internal/values.js';
import type { FieldNames, FormatReader, RowContext } from '../types.js';
import { jsonReviewMapper, jsonReviewRows, type ReviewItemMapper } from './json-review.js';
import { splitGoogleTranslation } from './translation.js';
import { dict, type Dict } from '../../platform/dict.js';

/** What Google shows for a reviewer who chose to stay anonymous. */
export const GOOGLE_ANONYMOUS = 'A Google user';

const FIELDS: FieldNames = {
  sourceReviewId: 'reviewId',
  'reviewRating.ratingValue': 'starRating',
  reviewRating: 'starRating',
  reviewBody: 'comment',
  reviewBodyTranslated: 'comment',
  inLanguage: 'comment',
  author: 'reviewer',
  'author.name': 'reviewer.displayName',
  datePublished: 'createTime',
  dateModified: 'updateTime',
  ownerResponse: 'reviewReply',
  'ownerResponse.text': 'reviewReply.comment',
  'ownerResponse.dateModified': 'reviewReply.updateTime',
};

function reviewIdOf(r: Record<string, unknown>): string | null {
  const id = text(r.reviewId);
  if (id !== null) return id;
  // `name` is "accounts/{a}/locations/{l}/reviews/{reviewId}".
  const name = text(r.name);
  const m = name === null ? null : /\/reviews\/([^/]+)$/.exec(name);
  return m ? m[1]! : null;
}

function authorOf(r: Record<string, unknown>): string {
  const reviewer = asRecord(r.reviewer);
  if (!reviewer || reviewer.isAnonymous === true) return GOOGLE_ANONYMOUS;
  return text(reviewer.displayName) ?? GOOGLE_ANONYMOUS;
}

function replyOf(r: Record<string, unknown>, ctx: RowContext): Record<string, unknown> | null {
  const reply = asRecord(r.reviewReply);
  if (!reply) return null;
  const comment = text(reply.comment);
  if (comment === null) return null;
  const split = splitGoogleTranslation(comment);
  return {
    text: split.original ?? comment,
    dateModified: parseOptionalDateTime(reply.updateTime, 'reviewReply.updateTime', ctx),
  };
}

function candidateOf(
  r: Record<string, unknown>,
  id: string,
  ctx: RowContext,
): Record<string, unknown> {
  const comment = typeof r.comment === 'string' ? r.comment : null;
  const split = splitGoogleTranslation(comment);
  return {
    source: 'google',
    sourceReviewId: id,
    reviewRating: { ratingValue: parseStarWord(r.starRating, 'starRating') },
    reviewBody: split.original,
    reviewBodyTranslated: split.translated,
    inLanguage: split.language,
    author: { name: authorOf(r) },
    datePublished: parseDateTime(r.createTime, 'createTime', ctx),
    dateModified: parseOptionalDateTime(r.updateTime, 'updateTime', ctx),
    ownerResponse: replyOf(r, ctx),
  };
}

/** Maps one item of a GBP `reviews.list` page (or a Takeout `reviews.json`) to a candidate row. */
export const mapGoogleReview: ReviewItemMapper = jsonReviewMapper({
  source: 'google',
  idOf: reviewIdOf,
  missingId: () => ({ field: 'reviewId', reason: 'missing review id (reviewId or name)' }),
  map: (r, id, ctx) => ({ candidate: candidateOf(r, id, ctx), fields: FIELDS }),
});

function reviewsSpan(doc: TextDocument): { span: JsonSpan; reported: Record<string, unknown> } {
  const root = scanJsonRoot(doc.bytes);
  if (root.kind === 'array') return { span: root.span, reported: {} };
  const span = root.members.get('reviews');
  if (!span) throw fileError(`${doc.path}: no "reviews" array (not a Google reviews file)`);
  const reported: Dict<unknown> = dict();
  for (const key of ['averageRating', 'totalReviewCount']) {
    const s = root.members.get(key);
    const value = s ? parseSpan(doc.bytes, s) : undefined;
    // Figures only: anything else would be echoed into the summary (a value nested 20,000 deep
    // overflowed the stack that prints it).
    if (typeof value === 'number' && Number.isFinite(value)) reported[key] = value;
  }
  return { span, reported };
}

/**
 * Reads a Google Business Profile reviews file: a Takeout `reviews.json` or a page of the API's
 * `reviews.list` (`{ reviews, averageRating, totalReviewCount, nextPageToken }`), or a bare
 * array of review items. Items are parsed one at a time as the import goes.
 */
export function readGoogleReviews(doc: TextDocument): FormatReader {
  const { span, reported } = reviewsSpan(doc);
  return {
    format: 'gbp',
    reported: Object.keys(reported).length > 0 ? { google: reported } : undefined,
    warnings: [],
    rows: (ctx) => jsonReviewRows(doc, span, mapGoogleReview, ctx),
  };
}

/** Case-insensitive lookup used by detection: does this item look like a Google review? */
export function looksLikeGoogleReview(item: Record<string, unknown>): boolean {
  return (
    pick(item, 'starRating') !== null ||
    (pick(item, 'reviewer') !== null && pick(item, 'createTime') !== null)
  );
}
