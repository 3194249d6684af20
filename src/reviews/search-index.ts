import type { Business } from '../domain/business.js';
import type { IndexedFacts } from '../domain/review.js';
import { ByteCodes, grow, sharedArray, sharedBytes, toShared } from '../platform/arrays.js';
import type { SortKey } from './order.js';
import {
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

/** Packs strings as they come into one growing UTF-8 buffer. */
class StringPacker {
  private bytes: Buffer;
  private readonly offsets: Uint32Array;
  private count = 0;
  private at = 0;

  /** `bytes`: a first size, grown by half as needed. */
  constructor(capacity: number, bytes: number) {
    this.offsets = sharedArray(Uint32Array, capacity + 1);
    this.bytes = sharedBytes(Math.max(64, bytes));
  }

  add(value: string): void {
    // A UTF-16 unit takes at most 3 bytes.
    const need = this.at + value.length * 3;
    if (need > this.bytes.length) {
      const grown = sharedBytes(Math.max(need, Math.ceil(this.bytes.length * 1.5)));
      this.bytes.copy(grown, 0, 0, this.at);
      this.bytes = grown;
    }
    this.offsets[this.count++] = this.at;
    this.at += this.bytes.write(value, this.at);
  }

  finish(): PackedStrings {
    this.offsets[this.count] = this.at;
    // A view of the buffer it grew, not a copy of the exact size: a copy held both at once, and
    // its pages beyond the strings were never written, so they take no memory (at 100,000 reviews
    // the build peaked about 14 MB lower, and its version held about 35 MB less once built).
    const bytes = new Uint8Array(this.bytes.buffer, 0, this.at);
    this.bytes = sharedBytes(0);
    return { bytes, offsets: toShared(this.offsets.subarray(0, this.count + 1)) };
  }
}

/** A facet per position (department, source): the byte code of its value (see `ByteCodes`). */
class Facet {
  readonly values = new ByteCodes();
  readonly of: Uint8Array;
  private count = 0;

  constructor(capacity: number) {
    this.of = sharedArray(Uint8Array, capacity);
  }

  add(value: string): void {
    this.of[this.count++] = this.values.code(value);
  }
}

/** A growing array of 32-bit integers. */
class IntList {
  values = new Uint32Array(1024);
  length = 0;

  push(value: number): void {
    this.values = grow(this.values, this.length + 1);
    this.values[this.length++] = value;
  }
}

/**
 * Builds the index data of reviews handed to it one at a time, in published order: it keeps
 * columns and the word ids of each review, never the reviews (the build reads 100,000 of them
 * without holding their records at once).
 */
export class IndexBuilder {
  private n = 0;
  private readonly rating: Uint8Array;
  private readonly days: Uint32Array;
  private readonly hasText: Uint8Array;
  private readonly byRating: number[][] = [[], [], [], [], [], []];
  private readonly ids: string[] = [];
  private readonly published: StringPacker;
  private readonly modified: StringPacker;
  private readonly haystacks: StringPacker;
  private readonly services = new Map<string, number[]>();
  private readonly staff = new Map<string, number[]>();
  private readonly staffNames = new Map<string, string>();
  /** Word ids in order of first use, and how many positions hold each. */
  private readonly words = new Map<string, number>();
  private readonly wordCounts: number[] = [];
  /** The distinct word ids of each position, position after position. */
  private readonly positionWords = new IntList();
  private readonly positionStarts: Uint32Array;
  private readonly departments: Facet;
  private readonly sources: Facet;

  /**
   * For `capacity` reviews. `textBytes`, when known, bounds the UTF-8 bytes of their titles and
   * texts (the build passes the size of the reviews' JSON): the packed haystacks start that large
   * and never grow. Pages never written take no memory, whereas each growth left the buffer it
   * outgrew, in shared memory that the collector does not count: at 100,000 reviews about 80 MB
   * of them, kept until the next collection, raised a change's peak by as much.
   */
  constructor(
    private readonly business: Business | null,
    private readonly capacity: number,
    textBytes = capacity * 64,
  ) {
    this.rating = sharedArray(Uint8Array, capacity);
    this.days = sharedArray(Uint32Array, capacity);
    this.hasText = sharedArray(Uint8Array, capacity);
    // RFC 3339 times of up to 24 bytes, and room for the packer's worst case of the last one.
    this.published = new StringPacker(capacity, capacity * 24 + 96);
    this.modified = new StringPacker(capacity, capacity * 24 + 96);
    this.haystacks = new StringPacker(capacity, textBytes);
    this.positionStarts = new Uint32Array(capacity + 1);
    this.departments = new Facet(capacity);
    this.sources = new Facet(capacity);
    for (const s of business?.staff ?? []) {
      this.staff.set(normalizeName(s.name), []);
      this.staffNames.set(normalizeName(s.name), s.name);
    }
  }

  /** Adds the next review (the next position). */
  add(r: IndexedFacts): void {
    const pos = this.n;
    if (pos >= this.capacity) throw new Error(`IndexBuilder: more than ${this.capacity} reviews`);
    this.n++;
    const stars = r.reviewRating.ratingValue;
    this.rating[pos] = stars;
    this.byRating[stars]!.push(pos);
    this.days[pos] = dayNumber(r.date);
    this.hasText[pos] = r.reviewBody === null ? 0 : 1;
    this.ids.push(r.id);
    this.published.add(r.datePublished);
    this.modified.add(r.dateModified);
    for (const s of r.mentions.services) pushPosting(this.services, s.toLowerCase(), pos);
    for (const t of r.mentions.technicians) {
      const key = normalizeName(t.name);
      if (!this.staffNames.has(key)) this.staffNames.set(key, t.name);
      pushPosting(this.staff, key, pos);
    }
    const hay = `${r.name ?? ''}\u0000${r.reviewBody ?? ''}`.toLowerCase();
    this.haystacks.add(hay);
    this.positionStarts[pos] = this.positionWords.length;
    for (const w of new Set(wordRuns(hay))) {
      let id = this.words.get(w);
      if (id === undefined) {
        id = this.wordCounts.length;
        this.words.set(w, id);
        this.wordCounts.push(0);
      }
      this.wordCounts[id]!++;
      this.positionWords.push(id);
    }
    this.departments.add(r.department ?? 'unknown');
    this.sources.add(r.source);
  }

  finish(): IndexData {
    const n = this.n;
    if (n !== this.capacity) throw new Error(`IndexBuilder: ${n} of ${this.capacity} reviews`);
    this.positionStarts[n] = this.positionWords.length;
    const { ids } = this;
    const idOrder = sharedArray(Uint32Array, n);
    for (let i = 0; i < n; i++) idOrder[i] = i;
    idOrder.sort((a, b) => (ids[a]! < ids[b]! ? -1 : ids[a]! > ids[b]! ? 1 : 0));
    const vocabulary = [...this.words.keys()];
    return {
      size: n,
      rating: this.rating,
      byRating: packLists(this.byRating),
      days: this.days,
      published: this.published.finish(),
      ids: packStrings(ids),
      idOrder,
      modified: this.modified.finish(),
      hasText: this.hasText,
      ...this.finishStaff(),
      serviceIds: [...this.services.keys()],
      serviceLists: packLists([...this.services.values()]),
      vocabulary: packStrings(vocabulary),
      postings: this.finishPostings(),
      ...buildTrigrams(vocabulary),
      haystacks: this.haystacks.finish(),
      departments: this.departments.values.list,
      departmentOf: this.departments.of,
      sources: this.sources.values.list,
      sourceOf: this.sources.of,
    };
  }

  /** The positions of each word: counted, then filled position after position (ascending). */
  private finishPostings(): PackedLists {
    const counts = this.wordCounts;
    const offsets = sharedArray(Uint32Array, counts.length + 1);
    for (let w = 0; w < counts.length; w++) offsets[w + 1] = offsets[w]! + counts[w]!;
    const values = sharedArray(Uint32Array, offsets[counts.length]!);
    const next = offsets.slice(0, counts.length);
    const { values: words } = this.positionWords;
    const starts = this.positionStarts;
    for (let pos = 0; pos < this.n; pos++) {
      for (let i = starts[pos]!; i < starts[pos + 1]!; i++) values[next[words[i]!]!++] = pos;
    }
    this.positionWords.values = new Uint32Array(0);
    return { values, offsets };
  }

  private finishStaff(): Pick<IndexData, 'staffKeys' | 'staffLists' | 'ambiguousFirstNames'> {
    const byName = this.staff;
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
      else ambiguous.push([first, fulls.map((f) => this.staffNames.get(f)!).sort()]);
    }
    return {
      staffKeys: [...staff.keys()],
      staffLists: packLists([...staff.values()]),
      ambiguousFirstNames: ambiguous,
    };
  }
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

/** Builds the index data of reviews already in published order. */
export function buildIndexData(
  reviews: readonly IndexedFacts[],
  business: Business | null,
): IndexData {
  const builder = new IndexBuilder(business, reviews.length);
  for (const r of reviews) builder.add(r);
  return builder.finish();
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

  /**
   * Whether position `a` was modified later than `b`: their `dateModified` compared as the
   * strings would be (RFC 3339 times, ASCII), byte by byte, without decoding them.
   */
  modifiedLater(a: number, b: number): boolean {
    const { bytes, offsets } = this.data.modified;
    let i = offsets[a]!;
    let j = offsets[b]!;
    const endA = offsets[a + 1]!;
    const endB = offsets[b + 1]!;
    for (; i < endA && j < endB; i++, j++) {
      if (bytes[i] !== bytes[j]) return bytes[i]! > bytes[j]!;
    }
    return endA - i > endB - j;
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
  reviews: readonly IndexedFacts[],
  business: Business | null,
): SearchIndex {
  return new SearchIndex(buildIndexData(reviews, business));
}
