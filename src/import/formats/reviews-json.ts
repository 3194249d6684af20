import { iterateArray, parseJsonAt, parseSpan, scanJsonRoot } from '../internal/json-scan.js';
import { fileError, type TextDocument } from '../internal/text.js';
import { asRecord, text } from '../internal/values.js';
import { rejectRow, type FormatReader, type MappedRow } from '../types.js';

/** The `ReviewSource` fields a public or sample review record carries under the same names. */
const SOURCE_KEYS = [
  'source',
  'sourceReviewId',
  'sourceUrl',
  'reviewRating',
  'name',
  'reviewBody',
  'reviewBodyTranslated',
  'inLanguage',
  'author',
  'datePublished',
  'dateModified',
  'department',
  'subRatings',
  'recommendsDealer',
  'ownerResponse',
  'verification',
] as const;

function taggedStaffOf(r: Record<string, unknown>): unknown {
  if (r.taggedStaff !== undefined) return r.taggedStaff;
  const mentions = asRecord(r.mentions);
  const technicians = mentions?.technicians;
  if (!Array.isArray(technicians)) return [];
  // Text matches are re-derived by this deployment from its own roster; tags are source facts.
  return technicians
    .map(asRecord)
    .filter((t) => t !== null && (t.via === 'tagged' || t.via === 'free-text'))
    .map((t) => ({ name: t!.name, via: t!.via, rating: t!.rating ?? null }));
}

/**
 * Maps a review of this service's `/reviews.json` (the public record) or of the sample format
 * (`ReviewSourceInput`) back to a candidate row. Derived fields (`id`, `date`, text-matched
 * mentions) are dropped and re-derived here; tagged and free-text staff are kept.
 */
export function mapPublishedReview(raw: unknown, row: number, line: number | null): MappedRow {
  const r = asRecord(raw);
  const base = { row, line, raw, key: null };
  if (!r) return rejectRow(base, '(row)', 'not a JSON object');
  const source = text(r.source);
  const id = text(r.sourceReviewId);
  const key = source !== null && id !== null ? { source, sourceReviewId: id } : null;
  const candidate: Record<string, unknown> = {};
  for (const k of SOURCE_KEYS) if (r[k] !== undefined) candidate[k] = r[k];
  candidate.taggedStaff = taggedStaffOf(r);
  return { ...base, key, candidate, fields: {} };
}

/**
 * Reads this service's own `/reviews.json` (`{ business, aggregateRating, reviews }`) or the
 * sample format (`{ business, reviews: ReviewSourceInput[] }`), so one deployment can seed
 * another. The business record is returned for the caller to validate and apply.
 */
export function readPublishedReviews(doc: TextDocument): FormatReader {
  const root = scanJsonRoot(doc.bytes);
  if (root.kind !== 'object' || !root.members.has('reviews')) {
    throw fileError(`${doc.path}: no "reviews" array (not a reviews.json file)`);
  }
  const span = root.members.get('reviews')!;
  const businessSpan = root.members.get('business');
  const business = businessSpan ? parseSpan(doc.bytes, businessSpan) : undefined;
  return {
    format: 'reviews-json',
    business: business === null ? undefined : business,
    warnings: [],
    *rows() {
      for (const item of iterateArray(doc.bytes, span)) {
        const json = parseJsonAt(item.text, item.line);
        yield { ...mapPublishedReview(json, item.index, item.line), end: item.end };
      }
    },
  };
}

/** Does this item look like a public or sample review record (detection)? */
export function looksLikePublishedReview(item: Record<string, unknown>): boolean {
  return asRecord(item.reviewRating) !== null && typeof item.sourceReviewId === 'string';
}
