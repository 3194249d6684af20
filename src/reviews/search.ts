import type { Issue } from '../domain/issues.js';
import { insightsPending, type AspectIndex } from './aspect-index.js';
import type { SearchFilters } from './search-schema.js';
import { compareKeys, type SortKey } from './order.js';
import { dayNumber, normalizeName, wordRuns, type SearchIndex } from './search-index.js';

export { compareKeys, type SortKey };

/** A page of matches: positions in published order, and the count of all matches. */
export interface SearchHits {
  total: number;
  positions: number[];
  /** True when more matches follow the last position returned. */
  more: boolean;
}

export type SearchOutcome = { ok: true; hits: SearchHits } | { ok: false; issues: Issue[] };

/**
 * The first of the positions 0 to `size` - 1 for which `ahead` is false, by binary search: the
 * positions for which it holds must all come first (`size` when it holds for all).
 */
function partitionPoint(size: number, ahead: (position: number) => boolean): number {
  let lo = 0;
  let hi = size;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (ahead(mid)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** First position whose date is <= `until` (dates descend). */
export function firstOnOrBefore(index: SearchIndex, until: string): number {
  const day = dayNumber(until);
  return partitionPoint(index.size, (i) => index.day(i) > day);
}

/** First position whose date is < `since` (the count of reviews dated on or after it). */
export function firstBefore(index: SearchIndex, since: string): number {
  const day = dayNumber(since);
  return partitionPoint(index.size, (i) => index.day(i) >= day);
}

/**
 * First position that comes after `key` in published order (or, with `inclusive`, at it): the
 * place a keyset cursor resumes from, even when the review with that key is gone.
 */
export function positionAfterKey(index: SearchIndex, key: SortKey, inclusive = false): number {
  return partitionPoint(index.size, (i) => {
    const c = compareKeys(index.key(i), key);
    return c < 0 || (c === 0 && !inclusive);
  });
}

const RUN_CACHE_MAX = 512;

/** Positions (ascending) of reviews with a word that contains `run`; cached per index. */
function runPositions(index: SearchIndex, run: string): Uint32Array {
  const cached = index.runCache.get(run);
  if (cached) return cached;
  const words = index.wordsContaining(run);
  let result: Uint32Array;
  if (words.length === 1) {
    result = index.postings(words[0]!);
  } else {
    const marks = new Uint8Array(index.size);
    let count = 0;
    for (const w of words) {
      for (const pos of index.postings(w)) {
        if (marks[pos] === 0) {
          marks[pos] = 1;
          count++;
        }
      }
    }
    result = new Uint32Array(count);
    let k = 0;
    for (let pos = 0; pos < marks.length && k < count; pos++) if (marks[pos]) result[k++] = pos;
  }
  if (index.runCache.size >= RUN_CACHE_MAX)
    index.runCache.delete(index.runCache.keys().next().value!);
  index.runCache.set(run, result);
  return result;
}

/**
 * Candidate positions for a case-insensitive substring query: reviews holding, for every word run
 * of the query, a word that contains it. `exact` when the query is a single word run, whose
 * candidates are exactly the matches; otherwise each candidate is verified on the text.
 */
function textCandidates(
  index: SearchIndex,
  lowerQuery: string,
): { lists: Uint32Array[]; exact: boolean } {
  const runs = [...new Set(wordRuns(lowerQuery))];
  if (runs.length === 0) return { lists: [], exact: false };
  return {
    lists: runs.map((run) => runPositions(index, run)),
    exact: runs.length === 1 && runs[0] === lowerQuery,
  };
}

function resolveStaff(index: SearchIndex, name: string): Uint32Array | Issue {
  const key = normalizeName(name);
  const ambiguous = index.ambiguous(key);
  if (ambiguous) {
    return {
      path: ['mentions_technician'],
      code: 'ambiguous',
      message: `matches several staff members (${ambiguous.join(', ')}); use the full name`,
    };
  }
  return index.staff(key) ?? new Uint32Array(0);
}

/** Intersection of sorted lists by pointer walk; `null` lists mean "no restriction". */
function contains(list: Uint32Array, pos: number, cursor: { i: number }): boolean {
  while (cursor.i < list.length && list[cursor.i]! < pos) cursor.i++;
  return cursor.i < list.length && list[cursor.i] === pos;
}

/**
 * Runs a search: every filter must hold (AND). Matches come in published order (newest first:
 * date, then datePublished, then id). `after` continues from a cursor's sort key. `aspects`: the
 * version's own analysis (`AspectIndex`), which `aspect` and `polarity` need: without it (its
 * insights are still being computed) such a search throws `insightsPending` (a 503).
 */
export function runSearch(
  index: SearchIndex,
  f: SearchFilters,
  after?: SortKey,
  aspects?: AspectIndex | null,
): SearchOutcome {
  const lo = f.until === undefined ? 0 : firstOnOrBefore(index, f.until);
  const hi = f.since === undefined ? index.size : firstBefore(index, f.since);
  const lists: Uint32Array[] = [];
  if (f.aspect !== undefined || f.polarity !== undefined) {
    if (!aspects) throw insightsPending();
    lists.push(aspects.list(f.aspect, f.polarity));
  }
  if (f.mentions_technician !== undefined) {
    const staff = resolveStaff(index, f.mentions_technician);
    if (!(staff instanceof Uint32Array)) return { ok: false, issues: [staff] };
    lists.push(staff);
  }
  if (f.mentions_service !== undefined) {
    lists.push(index.service(f.mentions_service.toLowerCase()));
  }
  let verify: Buffer | null = null;
  if (f.query !== undefined) {
    const lower = f.query.toLowerCase();
    const candidates = textCandidates(index, lower);
    lists.push(...candidates.lists);
    if (!candidates.exact) verify = Buffer.from(lower);
  }
  lists.sort((a, b) => a.length - b.length);
  const start = after ? Math.max(lo, positionAfterKey(index, after)) : lo;
  if (lists.length === 0 && verify === null) {
    return { ok: true, hits: ratingAndDateOnly(index, f, lo, hi, start) };
  }
  const minRating = f.min_rating ?? 0;
  const maxRating = f.max_rating ?? 5;
  const hits: SearchHits = { total: 0, positions: [], more: false };
  const cursors = lists.map(() => ({ i: 0 }));
  const accept = (pos: number): boolean => {
    const r = index.rating(pos);
    if (r < minRating || r > maxRating || (f.rating !== undefined && r !== f.rating)) return false;
    for (let k = 1; k < lists.length; k++) if (!contains(lists[k]!, pos, cursors[k]!)) return false;
    return verify === null || index.haystackIncludes(pos, verify);
  };
  const take = (pos: number): void => {
    hits.total++;
    if (pos < start) return;
    if (hits.positions.length < f.limit) hits.positions.push(pos);
    else hits.more = true;
  };
  if (lists.length === 0) {
    for (let pos = lo; pos < hi; pos++) if (accept(pos)) take(pos);
  } else {
    const driver = lists[0]!;
    for (let i = lowerBound(driver, lo); i < driver.length; i++) {
      const pos = driver[i]!;
      if (pos >= hi) break;
      if (accept(pos)) take(pos);
    }
  }
  return { ok: true, hits };
}

/** First index of a sorted list whose value is >= `value`. */
function lowerBound(list: Uint32Array, value: number): number {
  return partitionPoint(list.length, (i) => list[i]! < value);
}

/**
 * The common case of star and date filters only: counts come from binary searches in the
 * per-rating position lists, and the page from merging those lists, so the cost does not grow
 * with the number of matches.
 */
function ratingAndDateOnly(
  index: SearchIndex,
  f: SearchFilters,
  lo: number,
  hi: number,
  start: number,
): SearchHits {
  const minRating = f.min_rating ?? 0;
  const maxRating = f.max_rating ?? 5;
  const lists: Uint32Array[] = [];
  for (let r = 1; r <= 5; r++) {
    if (r >= minRating && r <= maxRating && (f.rating === undefined || f.rating === r))
      lists.push(index.ratingList(r));
  }
  let total = 0;
  const cursors = lists.map((list) => {
    total += lowerBound(list, hi) - lowerBound(list, lo);
    return lowerBound(list, start);
  });
  const positions: number[] = [];
  let more = false;
  for (;;) {
    let best = -1;
    for (let k = 0; k < lists.length; k++) {
      const pos = lists[k]![cursors[k]!];
      if (pos !== undefined && pos < hi && (best === -1 || pos < lists[best]![cursors[best]!]!))
        best = k;
    }
    if (best === -1) break;
    if (positions.length === f.limit) {
      more = true;
      break;
    }
    positions.push(lists[best]![cursors[best]!]!);
    cursors[best]!++;
  }
  return { total, positions, more };
}
