import type { Business } from '../domain/business.js';
import type { Review } from '../domain/review.js';

/**
 * In-memory indexes over the reviews of one data version, in their published order (newest
 * first): positions are indexes into that order. Built once per data version.
 */
export interface SearchIndex {
  readonly size: number;
  /** Star rating per position. */
  readonly rating: Uint8Array;
  /** Positions per star rating (index 1..5), ascending. */
  readonly byRating: readonly Uint32Array[];
  /** Local date per position (descending). */
  readonly dates: readonly string[];
  /** Sort keys per position, for cursors: `date`, `datePublished`, `id`. */
  readonly keys: readonly (readonly [string, string, string])[];
  /** Positions per staff key: lower-cased full names, and first names unique among them. */
  readonly staff: ReadonlyMap<string, Uint32Array>;
  /** First names shared by several staff members, with the full names they could mean. */
  readonly ambiguousFirstNames: ReadonlyMap<string, readonly string[]>;
  /** Positions per lower-cased service id. */
  readonly services: ReadonlyMap<string, Uint32Array>;
  /** Distinct lower-cased words of titles and texts, and the positions holding each. */
  readonly vocabulary: readonly string[];
  readonly postings: readonly Uint32Array[];
  /** Ids of the vocabulary words containing each trigram (to find words by substring). */
  readonly trigrams: ReadonlyMap<string, Uint32Array>;
  /** Positions whose words contain a word run, computed on demand and kept (bounded). */
  readonly runCache: Map<string, Uint32Array>;
  /** Lower-cased `title \u0000 text` per position, to verify substring matches. */
  readonly haystacks: readonly string[];
}

/** Splits lower-cased text into its word runs (letters, digits, combining marks). */
export function wordRuns(lower: string): string[] {
  return lower.match(/[\p{L}\p{N}\p{M}]+/gu) ?? [];
}

/** Normalises a person's name for lookup: lower case, single spaces. */
export function normalizeName(name: string): string {
  return name.trim().toLowerCase().replace(/\s+/g, ' ');
}

function toPostings(map: Map<string, number[]>): Map<string, Uint32Array> {
  const out = new Map<string, Uint32Array>();
  for (const [k, v] of map) out.set(k, Uint32Array.from(v));
  return out;
}

function pushPosting(map: Map<string, number[]>, key: string, pos: number): void {
  const list = map.get(key);
  if (!list) map.set(key, [pos]);
  else if (list[list.length - 1] !== pos) list.push(pos);
}

function buildStaff(
  reviews: readonly Review[],
  business: Business | null,
): Pick<SearchIndex, 'staff' | 'ambiguousFirstNames'> {
  const byName = new Map<string, number[]>();
  const displayNames = new Map<string, string>();
  for (const s of business?.staff ?? []) {
    byName.set(normalizeName(s.name), []);
    displayNames.set(normalizeName(s.name), s.name);
  }
  reviews.forEach((r, pos) => {
    for (const t of r.mentions.technicians) {
      const key = normalizeName(t.name);
      if (!displayNames.has(key)) displayNames.set(key, t.name);
      pushPosting(byName, key, pos);
    }
  });
  const firsts = new Map<string, string[]>();
  for (const full of byName.keys()) {
    const first = full.split(' ')[0]!;
    if (first === full) continue;
    firsts.set(first, [...(firsts.get(first) ?? []), full]);
  }
  const staff = toPostings(byName);
  const ambiguous = new Map<string, string[]>();
  for (const [first, fulls] of firsts) {
    if (staff.has(first)) continue;
    if (fulls.length === 1) staff.set(first, staff.get(fulls[0]!)!);
    else ambiguous.set(first, fulls.map((f) => displayNames.get(f)!).sort());
  }
  return { staff, ambiguousFirstNames: ambiguous };
}

function buildTrigrams(vocabulary: readonly string[]): Map<string, Uint32Array> {
  const lists = new Map<string, number[]>();
  vocabulary.forEach((word, id) => {
    const seen = new Set<string>();
    for (let i = 0; i + 3 <= word.length; i++) {
      const gram = word.slice(i, i + 3);
      if (seen.has(gram)) continue;
      seen.add(gram);
      const list = lists.get(gram);
      if (list) list.push(id);
      else lists.set(gram, [id]);
    }
  });
  const out = new Map<string, Uint32Array>();
  for (const [gram, ids] of lists) out.set(gram, Uint32Array.from(ids));
  return out;
}

/** Builds the search indexes for reviews already in published order. */
export function buildSearchIndex(
  reviews: readonly Review[],
  business: Business | null,
): SearchIndex {
  const n = reviews.length;
  const rating = new Uint8Array(n);
  const dates: string[] = new Array<string>(n);
  const keys: [string, string, string][] = new Array<[string, string, string]>(n);
  const haystacks: string[] = new Array<string>(n);
  const services = new Map<string, number[]>();
  const words = new Map<string, number[]>();
  for (let pos = 0; pos < n; pos++) {
    const r = reviews[pos]!;
    rating[pos] = r.reviewRating.ratingValue;
    dates[pos] = r.date;
    keys[pos] = [r.date, r.datePublished, r.id];
    for (const s of r.mentions.services) pushPosting(services, s.toLowerCase(), pos);
    const hay = `${r.name ?? ''}\u0000${r.reviewBody ?? ''}`.toLowerCase();
    haystacks[pos] = hay;
    for (const w of new Set(wordRuns(hay))) pushPosting(words, w, pos);
  }
  const vocabulary = [...words.keys()];
  const byRating: number[][] = [[], [], [], [], [], []];
  for (let pos = 0; pos < n; pos++) byRating[rating[pos]!]!.push(pos);
  return {
    size: n,
    rating,
    byRating: byRating.map((list) => Uint32Array.from(list)),
    dates,
    keys,
    ...buildStaff(reviews, business),
    services: toPostings(services),
    vocabulary,
    postings: vocabulary.map((w) => Uint32Array.from(words.get(w)!)),
    trigrams: buildTrigrams(vocabulary),
    runCache: new Map(),
    haystacks,
  };
}
