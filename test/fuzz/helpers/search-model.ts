import type { Review } from '../../../src/domain/review.js';

/**
 * The search and since rules as docs/api.md writes them, computed the slow and obvious way over
 * the published reviews: the oracle the fuzzed answers are compared with.
 */

export const SEARCH_KEYS = [
  'rating',
  'min_rating',
  'since',
  'until',
  'query',
  'mentions_technician',
  'mentions_service',
  'limit',
] as const;

const INTEGER = /^-?(0|[1-9]\d*)$/;
const NUMBER = /^-?(0|[1-9]\d*)(\.\d+)?$/;
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;

/** Length in characters (code points, as zod counts them): an emoji is one. */
const chars = (s: string): number => [...s].length;

/** A real calendar date written `YYYY-MM-DD` (year 0001 to 9999). */
export function isDate(s: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (y < 1 || mo < 1 || mo > 12 || d < 1) return false;
  const leap = y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][mo - 1]!;
  return d <= days;
}

/** Lookup form of a person's name: trimmed, lower case, single spaces. */
export const nameKey = (s: string): string => s.trim().toLowerCase().replace(/\s+/g, ' ');

export interface Filters {
  rating?: number;
  min_rating?: number;
  since?: string;
  until?: string;
  query?: string;
  mentions_technician?: string;
  mentions_service?: string;
  limit: number;
}

export type Verdict =
  | { ok: true; filters: Filters }
  /** The parameters the 400's issues must name, each at least once. */
  | { ok: false; paths: Set<string> };

function checkValue(key: string, value: string, into: Filters): boolean {
  switch (key) {
    case 'rating':
    case 'limit': {
      if (!INTEGER.test(value)) return false;
      const n = Number(value);
      const max = key === 'rating' ? 5 : 100;
      if (!Number.isSafeInteger(n) || n < 1 || n > max) return false;
      into[key] = n;
      return true;
    }
    case 'min_rating': {
      if (!NUMBER.test(value)) return false;
      const n = Number(value);
      if (!(n >= 1 && n <= 5)) return false;
      into.min_rating = n;
      return true;
    }
    case 'since':
    case 'until':
      if (!isDate(value)) return false;
      into[key] = value;
      return true;
    case 'query':
      if (chars(value) < 1 || chars(value) > 200 || CONTROL.test(value)) return false;
      into.query = value;
      return true;
    case 'mentions_technician':
    case 'mentions_service': {
      const t = value.trim();
      if (chars(t) < 1 || chars(t) > (key === 'mentions_service' ? 64 : 120)) return false;
      into[key] = key === 'mentions_service' ? t.toLowerCase() : nameKey(t);
      return true;
    }
    default:
      return false;
  }
}

/** What the documented rules say of a search query string. */
export function judgeSearch(
  params: URLSearchParams,
  known: readonly string[] = SEARCH_KEYS,
  defaults: { limit?: number } = { limit: 20 },
): Verdict {
  const bad = new Set<string>();
  const filters: Filters = { limit: defaults.limit ?? 0 };
  const keys = new Set(params.keys());
  for (const key of keys) {
    const values = params.getAll(key);
    if (values.length > 1 || !known.includes(key) || !checkValue(key, values[0]!, filters)) {
      bad.add(key.slice(0, 100));
    }
  }
  if (filters.since !== undefined && filters.until !== undefined && filters.since > filters.until)
    bad.add('since');
  return bad.size > 0 ? { ok: false, paths: bad } : { ok: true, filters };
}

/** Published order: newest first by date, then datePublished, then id. */
export function newestFirst(a: Review, b: Review): number {
  const ka = [a.date, a.datePublished, a.id];
  const kb = [b.date, b.datePublished, b.id];
  for (let i = 0; i < 3; i++) {
    if (ka[i]! > kb[i]!) return -1;
    if (ka[i]! < kb[i]!) return 1;
  }
  return 0;
}

/** Staff names by first name (roster and every name a review mentions), full names as keys. */
export function firstNames(
  reviews: readonly Review[],
  roster: readonly string[],
): Map<string, Set<string>> {
  const byFirst = new Map<string, Set<string>>();
  const add = (name: string): void => {
    const full = nameKey(name);
    const first = full.split(' ')[0]!;
    if (!byFirst.has(first)) byFirst.set(first, new Set());
    byFirst.get(first)!.add(full);
  };
  roster.forEach(add);
  for (const r of reviews) for (const t of r.mentions.technicians) add(t.name);
  return byFirst;
}

/** True when `key` (a lookup-form name) names one person only by a shared first name. */
export function isAmbiguous(key: string, byFirst: Map<string, Set<string>>): boolean {
  const fulls = byFirst.get(key);
  return fulls !== undefined && fulls.size > 1 && !fulls.has(key);
}

function mentions(r: Review, key: string, byFirst: Map<string, Set<string>>): boolean {
  return r.mentions.technicians.some((t) => {
    const full = nameKey(t.name);
    if (full === key) return true;
    const fulls = byFirst.get(key);
    return fulls?.size === 1 && full.split(' ')[0] === key;
  });
}

/** Every published review the filters keep, newest first (before the limit). */
export function searchModel(
  reviews: readonly Review[],
  f: Filters,
  byFirst: Map<string, Set<string>>,
): Review[] {
  const q = f.query?.toLowerCase();
  return reviews
    .filter(
      (r) =>
        (f.rating === undefined || r.reviewRating.ratingValue === f.rating) &&
        (f.min_rating === undefined || r.reviewRating.ratingValue >= f.min_rating) &&
        (f.since === undefined || r.date >= f.since) &&
        (f.until === undefined || r.date <= f.until) &&
        (q === undefined ||
          (r.name ?? '').toLowerCase().includes(q) ||
          (r.reviewBody ?? '').toLowerCase().includes(q)) &&
        (f.mentions_service === undefined ||
          r.mentions.services.some((s) => s.toLowerCase() === f.mentions_service)) &&
        (f.mentions_technician === undefined || mentions(r, f.mentions_technician, byFirst)),
    )
    .sort(newestFirst);
}

/** What the documented rules say of a since request: the path's date and its query string. */
export function judgeSince(
  date: string,
  params: URLSearchParams,
): { ok: true; limit?: number; cursor?: string } | { ok: false; paths: Set<string> } {
  const bad = new Set<string>();
  if (!isDate(date)) bad.add('date');
  const out: { limit?: number; cursor?: string } = {};
  for (const key of new Set(params.keys())) {
    const values = params.getAll(key);
    const value = values[0]!;
    const ok =
      values.length === 1 &&
      (key === 'limit'
        ? INTEGER.test(value) && Number(value) >= 1 && Number(value) <= 1000
        : key === 'cursor' && chars(value) >= 1 && chars(value) <= 500);
    if (!ok) bad.add(key.slice(0, 100));
    else if (key === 'limit') out.limit = Number(value);
    else out.cursor = value;
  }
  if (bad.size > 0) return { ok: false, paths: bad };
  if (out.cursor !== undefined && out.limit === undefined)
    return { ok: false, paths: new Set(['cursor']) };
  return { ok: true, ...out };
}
