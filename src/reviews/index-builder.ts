import type { Business } from '../domain/business.js';
import type { IndexedFacts } from '../domain/review.js';
import { ByteCodes, grow, sharedArray } from '../platform/arrays.js';
import type { IndexData } from './index-data.js';
import { dayNumber, normalizeName, wordRuns } from './index-keys.js';
import { packLists, packStrings, StringPacker, type PackedLists } from './packed.js';
import { buildTrigrams } from './vocabulary.js';

/**
 * The build of a version's index data (in the build worker): columns per position, posting
 * lists per rating, staff name, service and word, the vocabulary's trigrams, and the facets.
 */

function pushPosting(map: Map<string, number[]>, key: string, pos: number): void {
  const list = map.get(key);
  if (!list) map.set(key, [pos]);
  else if (list[list.length - 1] !== pos) list.push(pos);
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

/** Builds the index data of reviews already in published order. */
export function buildIndexData(
  reviews: readonly IndexedFacts[],
  business: Business | null,
): IndexData {
  const builder = new IndexBuilder(business, reviews.length);
  for (const r of reviews) builder.add(r);
  return builder.finish();
}
