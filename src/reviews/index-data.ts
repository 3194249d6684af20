import type { PackedLists, PackedStrings } from './packed.js';

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
