import { scanJsonRoot, type JsonSpan } from '../internal/json-scan.js';
import { fileError, type TextDocument } from '../internal/text.js';
import {
  asRecord,
  parseDateTime,
  parseDepartment,
  parseOptionalDateTime,
  parseYesNo,
  pick,
  roundRating,
  show,
  splitNames,
  text,
} from '../internal/values.js';
import { fieldError } from '../types.js';
import type { FieldNames, FormatReader, RowContext } from '../types.js';
import { jsonReviewMapper, jsonReviewRows, type ReviewItemMapper } from './json-review.js';
import { dict, type Dict } from '../../platform/dict.js';

/** The author name used when a DealerRater review carries none. */
export const DEALERRATER_ANONYMOUS = 'DealerRater customer';

const SUB_RATINGS = {
  customerService: ['CustomerService', 'Customer Service'],
  quality: ['QualityOfWork', 'Quality of Work', 'Quality'],
  friendliness: ['Friendliness'],
  pricing: ['Pricing'],
  overallExperience: ['OverallExperience', 'Overall Experience'],
} as const;

function fieldNames(r: Record<string, unknown>): FieldNames {
  const k = (fallback: string, ...names: string[]): string =>
    pick(r, fallback, ...names)?.key ?? fallback;
  return {
    sourceReviewId: k('Id', 'ReviewId'),
    sourceUrl: k('ReviewUrl', 'Url'),
    reviewRating: k('Rating', 'OverallRating'),
    'reviewRating.ratingValue': k('Rating', 'OverallRating'),
    name: k('Title'),
    reviewBody: k('ReviewText', 'Body', 'Text'),
    inLanguage: k('Language'),
    author: k('UserName'),
    'author.name': k('UserName'),
    datePublished: k('DateCreated'),
    dateModified: k('DateModified'),
    subRatings: k('Ratings', 'CategoryRatings'),
    taggedStaff: k('Employees'),
    ownerResponse: k('Messages'),
    'ownerResponse.text': k('Messages'),
  };
}

function rating(value: unknown, field: string): number | null {
  if (value === undefined || value === null || value === '' || value === 0) return null;
  // Numbers and numeric text only: Number() of an array joins it (a stack overflow for one
  // nested thousands deep) and reads [5] as 5 and true as 1.
  const n = typeof value === 'number' ? value : typeof value === 'string' ? Number(value) : NaN;
  if (!Number.isFinite(n)) throw fieldError(field, `not a rating: ${show(value)}`);
  return roundRating(n, field);
}

function subRatingsOf(r: Record<string, unknown>): Record<string, number | null> | null {
  const found = pick(r, 'Ratings', 'CategoryRatings', 'SubRatings');
  const obj = found ? asRecord(found.value) : null;
  if (!obj || !found) return null;
  const out: Dict<number | null> = dict();
  let any = false;
  for (const [field, names] of Object.entries(SUB_RATINGS)) {
    const v = pick(obj, ...names);
    out[field] = v ? rating(v.value, `${found.key}.${v.key}`) : null;
    if (out[field] !== null) any = true;
  }
  return any ? out : null;
}

function recommendOf(r: Record<string, unknown>): boolean | null {
  const direct = pick(r, 'Recommend', 'RecommendDealer', 'Recommended');
  if (direct) return parseYesNo(direct.value);
  const ratings = asRecord(pick(r, 'Ratings', 'CategoryRatings', 'SubRatings')?.value);
  const nested = ratings ? pick(ratings, 'Recommend Dealer', 'RecommendDealer') : null;
  return nested ? parseYesNo(nested.value) : null;
}

function staffOf(r: Record<string, unknown>): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  const employees = pick(r, 'Employees');
  if (employees && Array.isArray(employees.value)) {
    employees.value.forEach((e, i) => {
      const emp = asRecord(e);
      const name = emp ? text(pick(emp, 'Name', 'FullName', 'EmployeeName')?.value) : null;
      if (!emp || name === null) return;
      const value = pick(emp, 'Rating')?.value;
      out.push({ name, via: 'tagged', rating: rating(value, `${employees.key}.${i}.Rating`) });
    });
  }
  for (const name of splitNames(pick(r, 'EmployeeNames')?.value)) {
    out.push({ name, via: 'free-text', rating: null });
  }
  return out;
}

function isConsumerMessage(m: Record<string, unknown>): boolean {
  if (pick(m, 'IsDealerResponse')?.value === false) return true;
  const type = text(pick(m, 'Type', 'MessageType', 'AuthorType')?.value) ?? '';
  return /consumer|customer|reviewer/i.test(type);
}

/** The last dealer message as the owner response, and the name of its date field. */
function responseOf(
  r: Record<string, unknown>,
  ctx: RowContext,
): { response: Record<string, unknown>; dateField: string } | null {
  const messages = pick(r, 'Messages');
  if (!messages || !Array.isArray(messages.value)) return null;
  let last: { response: Record<string, unknown>; dateField: string } | null = null;
  messages.value.forEach((m, i) => {
    const msg = asRecord(m);
    if (!msg || isConsumerMessage(msg)) return;
    const body = text(pick(msg, 'Text', 'Body', 'Message')?.value);
    if (body === null) return;
    const date = pick(msg, 'DateModified', 'DateCreated');
    const dateField = `${messages.key}.${i}.${date?.key ?? 'DateCreated'}`;
    const dateModified = parseOptionalDateTime(date?.value, dateField, ctx);
    last = { response: { text: body, dateModified }, dateField };
  });
  return last;
}

function candidateOf(
  r: Record<string, unknown>,
  id: string,
  ctx: RowContext,
): { candidate: Record<string, unknown>; fields: FieldNames } {
  const fields = fieldNames(r);
  const overall = rating(pick(r, 'Rating', 'OverallRating')?.value, fields.reviewRating!);
  if (overall === null) throw fieldError(fields.reviewRating!, 'missing rating');
  const candidate: Record<string, unknown> = {
    source: 'dealerrater',
    sourceReviewId: id,
    sourceUrl: text(pick(r, 'ReviewUrl', 'Url')?.value),
    reviewRating: { ratingValue: overall },
    name: text(pick(r, 'Title')?.value),
    reviewBody: text(pick(r, 'ReviewText', 'Body', 'Text')?.value),
    inLanguage: text(pick(r, 'Language')?.value),
    author: { name: text(pick(r, 'UserName')?.value) ?? DEALERRATER_ANONYMOUS },
    datePublished: parseDateTime(pick(r, 'DateCreated')?.value, fields.datePublished!, ctx),
    dateModified: parseOptionalDateTime(pick(r, 'DateModified')?.value, fields.dateModified!, ctx),
    department: parseDepartment(pick(r, 'Department', 'VisitType')?.value),
    subRatings: subRatingsOf(r),
    recommendsDealer: recommendOf(r),
    taggedStaff: staffOf(r),
  };
  const reply = responseOf(r, ctx);
  candidate.ownerResponse = reply?.response ?? null;
  const named = reply ? { ...fields, 'ownerResponse.dateModified': reply.dateField } : fields;
  return { candidate, fields: named };
}

/** Maps one DealerRater review object (see docs/importing.md) to a candidate row. */
export const mapDealerRaterReview: ReviewItemMapper = jsonReviewMapper({
  source: 'dealerrater',
  idOf: (r) => text(pick(r, 'Id', 'ReviewId')?.value),
  missingId: (r) => ({ field: fieldNames(r).sourceReviewId!, reason: 'missing review id' }),
  map: candidateOf,
});

function reviewsSpan(doc: TextDocument): JsonSpan {
  const root = scanJsonRoot(doc.bytes);
  if (root.kind === 'array') return root.span;
  for (const key of ['Reviews', 'reviews']) {
    const span = root.members.get(key);
    if (span) return span;
  }
  throw fileError(`${doc.path}: no "Reviews" array (not a DealerRater reviews file)`);
}

/**
 * Reads a DealerRater reviews file: `{ "DealerId", "Reviews": [ ... ] }` or a bare array of
 * review objects, in the shape docs/importing.md documents. Keys match case-insensitively.
 */
export function readDealerRaterReviews(doc: TextDocument): FormatReader {
  const span = reviewsSpan(doc);
  return {
    format: 'dealerrater',
    warnings: [],
    rows: (ctx) => jsonReviewRows(doc, span, mapDealerRaterReview, ctx),
  };
}

/** Does this item look like a DealerRater review (detection)? */
export function looksLikeDealerRaterReview(item: Record<string, unknown>): boolean {
  return (
    pick(item, 'Employees', 'EmployeeNames', 'Department', 'ReviewText', 'DealerId') !== null &&
    pick(item, 'starRating', 'reviewRating') === null
  );
}
