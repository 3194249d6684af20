import type { AggregateRating } from '../domain/aggregate.js';
import type { Business } from '../domain/business.js';
import type { Review } from '../domain/review.js';
import type { Representation } from '../representation/index.js';
import type { ChangeIndex } from '../reviews/change-index.js';
import type { AspectIndex } from '../reviews/aspect-index.js';
import type { SearchIndex } from '../reviews/search-index.js';
import type { Views } from '../reviews/views.js';
import type { DataState } from '../store/index.js';

export type { Representation };

/**
 * Everything published for one data version. Its data, bytes and tags are fixed once built; what
 * arrives later is the codings that follow a document (added to its representation in place, see
 * `LiveSnapshot.addCodings`) and the documents that follow the version (the insights: a new
 * snapshot of the same version).
 */
export interface Snapshot {
  readonly state: DataState;
  readonly business: Business | null;
  readonly aggregate: AggregateRating;
  /** Search indexes and per-position columns over the reviews, newest first (`index.size`). */
  readonly index: SearchIndex;
  /**
   * What each review is about, from this version's own insights (the search's `aspect` and
   * `polarity`); `null` until they arrive (the previous version's insights document may be served
   * meanwhile, but never its lists).
   */
  readonly aspects: AspectIndex | null;
  /** Staff and service figures. */
  readonly views: Views;
  /** The change feed as of this version: its entries in sequence order. */
  readonly changes: ChangeIndex;
  /** The JSON bytes of the review at a position (a view into the `/reviews.json` body). */
  fragment(pos: number): Buffer;
  /**
   * The same bytes as `fragment`, from a function that holds only the `/reviews.json` body and
   * the review offsets, not the version: what a long response keeps while it is sent.
   */
  fragments(): (pos: number) => Buffer;
  /** The review at a position, parsed from its bytes. */
  review(pos: number): Review;
  /** Prepared documents keyed by path: `/reviews.json`, `/api/feed.json`, `/feed.xml`, ... */
  readonly representations: ReadonlyMap<string, Representation>;
  /** Responses computed on demand for this version (search, since), bounded; dropped with it. */
  readonly responses: ResponseCache;
  /**
   * A value derived once from this snapshot (its rendered pages), made by `make` on first use and
   * held as long as the snapshot is (strongly: not in a WeakMap, whose values V8 marks in the
   * atomic pause of a full collection).
   */
  memo<T>(key: string, make: () => T): T;
  /**
   * The JSON document served at `path`, parsed once per representation (a document that follows
   * the snapshot, such as the insights, is parsed when it has come), or `null` while there is none.
   */
  parsed<T>(path: string): T | null;
}

/** A bounded cache of prepared responses, keyed by a canonical request key. */
export interface ResponseCache {
  get(key: string): Representation | undefined;
  set(key: string, rep: Representation): void;
}

/** Announced once per new data version, after the new snapshot is live. */
export interface ChangeEvent {
  readonly version: number;
  /** Paths of the representations whose bytes changed (topics among them). */
  readonly changed: readonly string[];
  readonly snapshot: Snapshot;
}

/** The live view of the published data; `current()` swaps atomically on each change. */
export interface Published {
  current(): Snapshot;
  onChange(listener: (event: ChangeEvent) => void): () => void;
}

/**
 * The served data version could not be refreshed: since when, why, and whether the store holds a
 * newer one (`null` while the store cannot be read).
 */
export interface Staleness {
  /** When the first of the failed refreshes ended (milliseconds since the epoch). */
  readonly since: number;
  /** One line for the public: what failed (the error itself is in the log). */
  readonly reason: string;
  /** The newest data version the store was seen to hold meanwhile, if it could be read. */
  readonly newerVersion: number | null;
  /**
   * Since when the store could be read but its newer version not published, attempt after
   * attempt (an instance stuck while the others may be fine); `null` while the store is away
   * (every instance is then in the same boat), also after builds cut short by the outage.
   */
  readonly behindSince: number | null;
}
