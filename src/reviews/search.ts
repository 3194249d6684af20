import type { Issue } from '../http/errors.js';
import type { SearchFilters } from './search-schema.js';
import { normalizeName, wordRuns, type SearchIndex } from './search-index.js';

/** A page of matches: positions in published order, and the count of all matches. */
export interface SearchHits {
  total: number;
  positions: number[];
  /** True when more matches follow the last position returned. */
  more: boolean;
}

export type SearchOutcome = { ok: true; hits: SearchHits } | { ok: false; issues: Issue[] };

/** The sort key of a position, for keyset cursors. */
export type SortKey = readonly [date: string, datePublished: string, id: string];

/** Compares sort keys in published order (newest first): negative when `a` comes first. */
export function compareKeys(a: SortKey, b: SortKey): number {
  for (let i = 0; i < 3; i++) {
    if (a[i]! > b[i]!) return -1;
    if (a[i]! < b[i]!) return 1;
  }
  return 0;
}

/** First position whose date is <= `until` (dates descend). */
function firstOnOrBefore(dates: readonly string[], until: string): number {
  let lo = 0;
  let hi = dates.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (dates[mid]! > until) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** First position whose date is < `since` (the count of reviews dated on or after it). */
export function firstBefore(dates: readonly string[], since: string): number {
  let lo = 0;
  let hi = dates.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (dates[mid]! >= since) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * First position that comes after `key` in published order (or, with `inclusive`, at it): the
 * place a keyset cursor resumes from, even when the review with that key is gone.
 */
export function positionAfterKey(index: SearchIndex, key: SortKey, inclusive = false): number {
  let lo = 0;
  let hi = index.size;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const c = compareKeys(index.keys[mid]!, key);
    if (c < 0 || (c === 0 && !inclusive)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Positions whose title or text contain `query` as a case-insensitive substring (candidates, sorted). */
function textCandidates(
  index: SearchIndex,
  lowerQuery: string,
): { list: Uint32Array; exact: boolean } {
  const runs = wordRuns(lowerQuery);
  if (runs.length === 0) {
    return { list: Uint32Array.from({ length: index.size }, (_, i) => i), exact: false };
  }
  let marks: Uint8Array | null = null;
  for (const run of new Set(runs)) {
    const mine = new Uint8Array(index.size);
    const vocabulary = index.vocabulary;
    for (let w = 0; w < vocabulary.length; w++) {
      if (vocabulary[w]!.includes(run)) for (const pos of index.postings[w]!) mine[pos] = 1;
    }
    if (marks === null) marks = mine;
    else for (let i = 0; i < marks.length; i++) marks[i]! &= mine[i]!;
  }
  const out: number[] = [];
  for (let i = 0; i < marks!.length; i++) if (marks![i]) out.push(i);
  // A query that is one word run and nothing else is matched exactly by the vocabulary scan.
  return { list: Uint32Array.from(out), exact: runs.length === 1 && runs[0] === lowerQuery };
}

function resolveStaff(index: SearchIndex, name: string): Uint32Array | Issue {
  const key = normalizeName(name);
  const ambiguous = index.ambiguousFirstNames.get(key);
  if (ambiguous) {
    return {
      path: ['mentions_technician'],
      code: 'ambiguous',
      message: `matches several staff members (${ambiguous.join(', ')}); use the full name`,
    };
  }
  return index.staff.get(key) ?? new Uint32Array(0);
}

/** Intersection of sorted lists by pointer walk; `null` lists mean "no restriction". */
function contains(list: Uint32Array, pos: number, cursor: { i: number }): boolean {
  while (cursor.i < list.length && list[cursor.i]! < pos) cursor.i++;
  return cursor.i < list.length && list[cursor.i] === pos;
}

/**
 * Runs a search: every filter must hold (AND). Matches come in published order (newest first:
 * date, then datePublished, then id). `after` continues from a cursor's sort key.
 */
export function runSearch(index: SearchIndex, f: SearchFilters, after?: SortKey): SearchOutcome {
  const lo = f.until === undefined ? 0 : firstOnOrBefore(index.dates, f.until);
  const hi = f.since === undefined ? index.size : firstBefore(index.dates, f.since);
  const lists: Uint32Array[] = [];
  if (f.mentions_technician !== undefined) {
    const staff = resolveStaff(index, f.mentions_technician);
    if (!(staff instanceof Uint32Array)) return { ok: false, issues: [staff] };
    lists.push(staff);
  }
  if (f.mentions_service !== undefined) {
    lists.push(index.services.get(f.mentions_service.toLowerCase()) ?? new Uint32Array(0));
  }
  let verify: string | null = null;
  if (f.query !== undefined) {
    const lower = f.query.toLowerCase();
    const { list, exact } = textCandidates(index, lower);
    lists.push(list);
    if (!exact) verify = lower;
  }
  lists.sort((a, b) => a.length - b.length);
  const start = after ? Math.max(lo, positionAfterKey(index, after)) : lo;
  const minRating = f.min_rating ?? 0;
  const hits: SearchHits = { total: 0, positions: [], more: false };
  const cursors = lists.map(() => ({ i: 0 }));
  const accept = (pos: number): boolean => {
    const r = index.rating[pos]!;
    if (r < minRating || (f.rating !== undefined && r !== f.rating)) return false;
    for (let k = 1; k < lists.length; k++) if (!contains(lists[k]!, pos, cursors[k]!)) return false;
    return verify === null || index.haystacks[pos]!.includes(verify);
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
    for (const pos of lists[0]!) {
      if (pos < lo) continue;
      if (pos >= hi) break;
      if (accept(pos)) take(pos);
    }
  }
  return { ok: true, hits };
}
