import type { AggregateRating } from '../domain/aggregate.js';
import type { Business } from '../domain/business.js';
import type { Review } from '../domain/review.js';
import type { DataState } from '../store/index.js';

/** One prepared response body: built once per data version, served from memory. */
export interface Representation {
  readonly contentType: string;
  readonly body: Buffer;
  /** Compressed variants; `null` when compression would not make it smaller. */
  readonly gzip: Buffer | null;
  readonly br: Buffer | null;
  /** Strong entity tag of the identity bytes, quoted (`"..."`). */
  readonly etag: string;
  /** HTTP-date of the newest change to the published data. */
  readonly lastModified: string;
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
  /** Prepared documents keyed by path: `/reviews.json`, `/api/feed.json`, `/feed.xml`, ... */
  readonly representations: ReadonlyMap<string, Representation>;
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
