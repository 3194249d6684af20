import type { Business } from '../domain/business.js';
import type { ReviewFacts } from '../domain/review.js';
import type { SortKey } from './order.js';
import {
  buffersOf,
  bytesAt,
  listAt,
  packedCount,
  packLists,
  packStrings,
  stringAt,
  type PackedLists,
  type PackedStrings,
} from './packed.js';

/**
 * The indexes over the reviews of one data version, in their published order (newest first):
 * positions are indexes into that order. Built once per data version (in the build worker), made
 * only of typed arrays and a few short string lists, so they move to the service's thread
 * without a copy.
 */
export interface IndexData {
  readonly size: number;
  /** Star rating per position. */
  readonly rating: Uint8Array;
  /** Positions per star rating (lists 0..5), ascending. */
  readonly byRating: PackedLists;
  /** Local date per position as the integer YYYYMMDD (descending). */
  readonly days: Uint32Array;
  /** `datePublished` and `id` per position (with the day, the sort key of cursors). */
  readonly published: PackedStrings;
  readonly ids: PackedStrings;
  /** Positions in the order of their ids, to find a review by id. */
  readonly idOrder: Uint32Array;
  /** `dateModified` per position (the aggregate's `asOf`). */
  readonly modified: PackedStrings;
  /** 1 when the review has text (the aggregate's `reviewCount`). */
  readonly hasText: Uint8Array;
  /** Staff keys (lower-cased full names, and first names unique among them) and their positions. */
  readonly staffKeys: readonly string[];
  readonly staffLists: PackedLists;
  /** First names shared by several staff members, with the full names they could mean. */
  readonly ambiguousFirstNames: readonly (readonly [string, readonly string[]])[];
  /** Lower-cased service ids and their positions. */
  readonly serviceIds: readonly string[];
  readonly serviceLists: PackedLists;
  /** Distinct lower-cased words of titles and texts, and the positions holding each. */
  readonly vocabulary: PackedStrings;
  readonly postings: PackedLists;
  /** Trigrams and the ids of the vocabulary words that contain each (to find words by substring). */
  readonly trigrams: readonly string[];
  readonly trigramWords: PackedLists;
  /** Lower-cased `title \u0000 text` per position, to verify substring matches. */
  readonly haystacks: PackedStrings;
  /** Facets for grouped figures: department and source per position, as indexes into the lists. */
  readonly departments: readonly string[];
  readonly departmentOf: Uint8Array;
  readonly sources: readonly string[];
  readonly sourceOf: Uint8Array;
}

/** The buffers of an index, to transfer it to another thread. */
export function indexBuffers(d: IndexData): ArrayBuffer[] {
  const packs = [
    d.byRating,
    d.published,
    d.ids,
    d.modified,
    d.staffLists,
    d.serviceLists,
    d.vocabulary,
    d.postings,
    d.trigramWords,
    d.haystacks,
  ];
  return buffersOf(
    d.rating,
    d.days,
    d.idOrder,
    d.hasText,
    d.departmentOf,
    d.sourceOf,
    ...packs.flatMap((p) => [('bytes' in p ? p.bytes : p.values) as ArrayBufferView, p.offsets]),
  );
}

/** Splits lower-cased text into its word runs (letters, digits, combining marks). */
export function wordRuns(lower: string): string[] {
  return lower.match(/[\p{L}\p{N}\p{M}]+/gu) ?? [];
}

/** Normalises a person's name for lookup: lower case, single spaces. */
export function normalizeName(name: string): string {
  return name.trim().toLowerCase().replace(/\s+/g, ' ');
}

/** The integer YYYYMMDD of a `YYYY-MM-DD` date: the same order, compared as numbers. */
export function dayNumber(date: string): number {
  return (
    Number(date.slice(0, 4)) * 10_000 + Number(date.slice(5, 7)) * 100 + Number(date.slice(8, 10))
  );
}

/** The `YYYY-MM-DD` of a day number. */
export function dayString(day: number): string {
  const y = Math.floor(day / 10_000);
  const m = Math.floor(day / 100) % 100;
  const d = day % 100;
  return `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

function pushPosting(map: Map<string, number[]>, key: string, pos: number): void {
  const list = map.get(key);
  if (!list) map.set(key, [pos]);
  else if (list[list.length - 1] !== pos) list.push(pos);
}

function buildStaff(
  reviews: readonly ReviewFacts[],
  business: Business | null,
): Pick<IndexData, 'staffKeys' | 'staffLists' | 'ambiguousFirstNames'> {
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
  const staff = new Map(byName);
  const ambiguous: [string, string[]][] = [];
  for (const [first, fulls] of firsts) {
    if (staff.has(first)) continue;
    if (fulls.length === 1) staff.set(first, staff.get(fulls[0]!)!);
    else ambiguous.push([first, fulls.map((f) => displayNames.get(f)!).sort()]);
  }
  return {
    staffKeys: [...staff.keys()],
    staffLists: packLists([...staff.values()]),
    ambiguousFirstNames: ambiguous,
  };
}

function buildTrigrams(
  vocabulary: readonly string[],
): Pick<IndexData, 'trigrams' | 'trigramWords'> {
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
  return { trigrams: [...lists.keys()], trigramWords: packLists([...lists.values()]) };
}

/** Indexes of the values in `list` (first seen first), and the index of each item. */
function facet(values: readonly string[]): { names: string[]; of: Uint8Array } {
  const names: string[] = [];
  const at = new Map<string, number>();
  const of = new Uint8Array(values.length);
  values.forEach((v, i) => {
    let k = at.get(v);
    if (k === undefined) {
      k = names.length;
      if (k > 255) throw new Error('more than 256 distinct facet values');
      names.push(v);
      at.set(v, k);
    }
    of[i] = k;
  });
  return { names, of };
}

/** Builds the index data of reviews already in published order. */
export function buildIndexData(
  reviews: readonly ReviewFacts[],
  business: Business | null,
): IndexData {
  const n = reviews.length;
  const rating = new Uint8Array(n);
  const days = new Uint32Array(n);
  const hasText = new Uint8Array(n);
  const haystacks: string[] = new Array<string>(n);
  const services = new Map<string, number[]>();
  const words = new Map<string, number[]>();
  const byRating: number[][] = [[], [], [], [], [], []];
  for (let pos = 0; pos < n; pos++) {
    const r = reviews[pos]!;
    rating[pos] = r.reviewRating.ratingValue;
    byRating[r.reviewRating.ratingValue]!.push(pos);
    days[pos] = dayNumber(r.date);
    hasText[pos] = r.reviewBody === null ? 0 : 1;
    for (const s of r.mentions.services) pushPosting(services, s.toLowerCase(), pos);
    const hay = `${r.name ?? ''}\u0000${r.reviewBody ?? ''}`.toLowerCase();
    haystacks[pos] = hay;
    for (const w of new Set(wordRuns(hay))) pushPosting(words, w, pos);
  }
  const vocabulary = [...words.keys()];
  const ids = reviews.map((r) => r.id);
  const idOrder = Uint32Array.from(ids.keys());
  idOrder.sort((a, b) => (ids[a]! < ids[b]! ? -1 : ids[a]! > ids[b]! ? 1 : 0));
  const departments = facet(reviews.map((r) => r.department ?? 'unknown'));
  const sources = facet(reviews.map((r) => r.source));
  return {
    size: n,
    rating,
    byRating: packLists(byRating),
    days,
    published: packStrings(reviews.map((r) => r.datePublished)),
    ids: packStrings(ids),
    idOrder,
    modified: packStrings(reviews.map((r) => r.dateModified)),
    hasText,
    ...buildStaff(reviews, business),
    serviceIds: [...services.keys()],
    serviceLists: packLists([...services.values()]),
    vocabulary: packStrings(vocabulary),
    postings: packLists(vocabulary.map((w) => words.get(w)!)),
    ...buildTrigrams(vocabulary),
    haystacks: packStrings(haystacks),
    departments: departments.names,
    departmentOf: departments.of,
    sources: sources.names,
    sourceOf: sources.of,
  };
}

const EMPTY = new Uint32Array(0);

function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/**
 * The search indexes of one data version, over their compact data: lookups by position, staff
 * name, service id, word and id; the maps it needs are built on first use.
 */
export class SearchIndex {
  readonly size: number;
  /** Positions whose words contain a word run, computed on demand and kept (bounded). */
  readonly runCache = new Map<string, Uint32Array>();
  private staffMap: Map<string, Uint32Array> | undefined;
  private ambiguousMap: Map<string, readonly string[]> | undefined;
  private serviceMap: Map<string, Uint32Array> | undefined;
  private trigramMap: Map<string, number> | undefined;
  private readonly vocabularyBytes: Buffer;
  private readonly haystackBytes: Buffer;

  constructor(readonly data: IndexData) {
    this.size = data.size;
    this.vocabularyBytes = asBuffer(data.vocabulary.bytes);
    this.haystackBytes = asBuffer(data.haystacks.bytes);
  }

  rating(pos: number): number {
    return this.data.rating[pos]!;
  }

  /** Positions with this star rating, ascending. */
  ratingList(stars: number): Uint32Array {
    return listAt(this.data.byRating, stars);
  }

  /** The local date of a position as YYYYMMDD. */
  day(pos: number): number {
    return this.data.days[pos]!;
  }

  /** The local date of a position. */
  date(pos: number): string {
    return dayString(this.data.days[pos]!);
  }

  id(pos: number): string {
    return stringAt(this.data.ids, pos);
  }

  dateModified(pos: number): string {
    return stringAt(this.data.modified, pos);
  }

  hasText(pos: number): boolean {
    return this.data.hasText[pos] === 1;
  }

  /** The sort key of a position, for keyset cursors. */
  key(pos: number): SortKey {
    return [this.date(pos), stringAt(this.data.published, pos), this.id(pos)];
  }

  /** The position of the review with this id, or -1. */
  positionOf(id: string): number {
    const { idOrder } = this.data;
    const at = this.idLowerBound(id);
    return at < idOrder.length && this.id(idOrder[at]!) === id ? idOrder[at]! : -1;
  }

  /** First index in id order whose id is not below `value`. */
  private idLowerBound(value: string): number {
    const { idOrder } = this.data;
    let lo = 0;
    let hi = idOrder.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.id(idOrder[mid]!) < value) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /**
   * The ids that start with `prefix` (ids are lower case; so is the match), in id order: the
   * first `limit` of them, and how many there are.
   */
  idsWithPrefix(prefix: string, limit: number): { values: string[]; total: number } {
    const lower = prefix.toLowerCase();
    const from = this.idLowerBound(lower);
    const to = this.idLowerBound(`${lower}\uffff`);
    const values: string[] = [];
    for (let i = from; i < to && values.length < limit; i++)
      values.push(this.id(this.data.idOrder[i]!));
    return { values, total: to - from };
  }

  /** Positions mentioning a staff key (normalised name), or `undefined` for an unknown key. */
  staff(key: string): Uint32Array | undefined {
    if (!this.staffMap) {
      const { staffKeys, staffLists } = this.data;
      this.staffMap = new Map(staffKeys.map((k, i) => [k, listAt(staffLists, i)]));
    }
    return this.staffMap.get(key);
  }

  /** Every staff key the index knows (normalised full names and unique first names). */
  staffKeys(): readonly string[] {
    return this.data.staffKeys;
  }

  /** The full names a first name shared by several staff members could mean. */
  ambiguous(key: string): readonly string[] | undefined {
    this.ambiguousMap ??= new Map(this.data.ambiguousFirstNames);
    return this.ambiguousMap.get(key);
  }

  /** Positions mentioning a service id (lower case); empty for an unknown id. */
  service(id: string): Uint32Array {
    if (!this.serviceMap) {
      const { serviceIds, serviceLists } = this.data;
      this.serviceMap = new Map(serviceIds.map((k, i) => [k, listAt(serviceLists, i)]));
    }
    return this.serviceMap.get(id) ?? EMPTY;
  }

  /** Positions holding vocabulary word `w`. */
  postings(w: number): Uint32Array {
    return listAt(this.data.postings, w);
  }

  /** Ids of the vocabulary words that contain `run`. */
  wordsContaining(run: string): number[] {
    if (run.length < 3) return this.scanVocabulary(run);
    const lists: Uint32Array[] = [];
    this.trigramMap ??= new Map(this.data.trigrams.map((g, i) => [g, i]));
    for (let i = 0; i + 3 <= run.length; i++) {
      const k = this.trigramMap.get(run.slice(i, i + 3));
      if (k === undefined) return [];
      lists.push(listAt(this.data.trigramWords, k));
    }
    lists.sort((x, y) => x.length - y.length);
    const out: number[] = [];
    for (const w of lists[0]!) {
      if (stringAt(this.data.vocabulary, w).includes(run)) out.push(w);
    }
    return out;
  }

  /** Words containing a short run: one scan of the packed vocabulary bytes. */
  private scanVocabulary(run: string): number[] {
    const needle = Buffer.from(run);
    const { offsets } = this.data.vocabulary;
    const out: number[] = [];
    let from = 0;
    for (;;) {
      const at = this.vocabularyBytes.indexOf(needle, from);
      if (at < 0) return out;
      // The word holding the match (the last whose start is at or before it).
      let lo = 0;
      let hi = packedCount(this.data.vocabulary);
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (offsets[mid]! <= at) lo = mid + 1;
        else hi = mid;
      }
      const w = lo - 1;
      const end = offsets[w + 1]!;
      if (at + needle.length <= end) {
        out.push(w);
        from = end;
      } else from = at + 1;
    }
  }

  /** True when the lower-cased title and text of a position contain `needle` (UTF-8). */
  haystackIncludes(pos: number, needle: Buffer): boolean {
    const { offsets } = this.data.haystacks;
    return this.haystackBytes.subarray(offsets[pos]!, offsets[pos + 1]!).includes(needle);
  }

  /** The lower-cased haystack of a position (tests). */
  haystack(pos: number): Uint8Array {
    return bytesAt(this.data.haystacks, pos);
  }
}

/** Builds the search index of reviews already in published order (in one thread). */
export function buildSearchIndex(
  reviews: readonly ReviewFacts[],
  business: Business | null,
): SearchIndex {
  return new SearchIndex(buildIndexData(reviews, business));
}
