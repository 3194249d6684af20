import type { AggregateRating } from '../domain/aggregate.js';
import type { Business } from '../domain/business.js';
import type { Review } from '../domain/review.js';
import type { SearchIndex } from '../reviews/search-index.js';
import type { DataState } from '../store/index.js';

/** One prepared response body: built once per data version, served from memory. */
export interface Representation {
  readonly contentType: string;
  /** The identity bytes. */
  readonly body: Buffer;
  /** Strong entity tag of the identity bytes, quoted (`"..."`). */
  readonly etag: string;
  /** HTTP-date of the newest change to the published data. */
  readonly lastModified: string;
  readonly lastModifiedMs: number;
  /** Extra response headers (Link, Cache-Control). */
  readonly headers: Readonly<Record<string, string>>;
  /** The body in a content coding, or `null` when that coding would not make it smaller. */
  encoded(coding: 'gzip' | 'br'): Buffer | null;
}

/** The paths of the WebSub topics (relative to BASE_URL). */
export const TOPIC_PATHS = ['/feed.xml', '/api/feed.json', '/reviews.json'] as const;
export type TopicPath = (typeof TOPIC_PATHS)[number];

/** Everything published for one data version. Immutable once built. */
export interface Snapshot {
  readonly state: DataState;
  readonly business: Business | null;
  readonly aggregate: AggregateRating;
  /** Public reviews, newest first (date, then datePublished, then id, all descending). */
  readonly reviews: readonly Review[];
  /** The JSON text of each review, aligned with `reviews`. */
  readonly fragments: readonly string[];
  /** Search indexes over `reviews`. */
  readonly index: SearchIndex;
  /** Prepared documents keyed by path: `/reviews.json`, `/api/feed.json`, `/feed.xml`, ... */
  readonly representations: ReadonlyMap<string, Representation>;
  /** Responses computed on demand for this version (search, since), bounded; dropped with it. */
  readonly responses: ResponseCache;
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
