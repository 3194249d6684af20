import type { Business } from '../domain/business.js';
import type { IndexedFacts } from '../domain/review.js';
import type { IndexData } from './index-data.js';
import { buildIndexData } from './index-builder.js';
import { dayString } from './index-keys.js';
import type { SortKey } from './order.js';
import { asBuffer, bytesAt, listAt, stringAt } from './packed.js';
import { WordFinder } from './vocabulary.js';

/**
 * The search index of a data version: lookups over its compact data (`IndexData`, built by
 * `IndexBuilder` in the build worker) by position, star rating, date, id, staff name, service
 * and word. Its parts: the data's shape (index-data.ts), its keys and tokens (index-keys.ts),
 * its build (index-builder.ts), its words by substring (vocabulary.ts), the packed strings and
 * lists it is made of (packed.ts). The names the rest of the service uses are exported here.
 */

export type { IndexData };
export { buildIndexData, IndexBuilder } from './index-builder.js';
export { dayNumber, dayString, normalizeName, wordRuns } from './index-keys.js';

const EMPTY = new Uint32Array(0);

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
  private readonly words: WordFinder;
  private readonly haystackBytes: Buffer;

  constructor(readonly data: IndexData) {
    this.size = data.size;
    this.words = new WordFinder(data);
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
    return this.words.wordsContaining(run);
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
