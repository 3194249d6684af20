import type { Business } from '../../domain/business.js';
import type { ReviewSource } from '../../domain/review.js';
import type { WebSubStore } from '../hub/types.js';
import type { AnalysisStore } from '../analyses/types.js';
import type { ChangeFeedHead, ReviewRemoval } from '../changes/types.js';
import type { ModerationStore } from '../moderation/types.js';
import type { RateStore } from '../rates/types.js';
import type { SessionStore } from '../sessions/types.js';
import type { SourceRunStore } from '../source-runs/types.js';
import type { StoreTransfer } from '../transfer/types.js';

/** The version of the published data: bumped by every committed change to reviews or business. */
export interface DataState {
  version: number;
  /** RFC 3339 time of the commit that produced this version (the HTTP `Last-Modified`). */
  changedAt: string;
}

/** A review as the store keeps it: the source fields, and the public record derived from them. */
export interface StoredReview {
  id: string;
  source: string;
  sourceReviewId: string;
  /** Hash of the source fields; equal hashes mean an import changes nothing. */
  sourceHash: string;
  sourceRecord: ReviewSource;
  /** The public review record, serialised once, exactly as every endpoint emits it. */
  publicJson: string;
  /** The version of the derivation code that produced `publicJson` (`DERIVATION_VERSION`). */
  derivedVersion: number;
  ingestedAt: string;
}

/** A consistent read of everything that is published. */
export interface Dataset {
  state: DataState;
  business: Business | null;
  /** Public review records as JSON text, in no particular order; never a hidden review. */
  reviews: string[];
}

/** What an ordered read of the published data starts with (`Store.readPublished`). */
export interface PublishedHead {
  state: DataState;
  business: Business | null;
  /** How many reviews follow, and the UTF-8 bytes of their JSON texts together. */
  count: number;
  bytes: number;
  /** Where the change feed stands in this read (`changes/types.ts`). */
  feed: ChangeFeedHead;
}

/**
 * Receives an ordered read: `begin` once, then `review` for each review, in published order, with
 * the sequence number of its latest change in the feed, then `removal` for each tombstone of the
 * feed, in sequence order.
 */
export interface PublishedReader {
  begin(head: PublishedHead): void;
  review(json: string, seq: number): void;
  removal(removal: ReviewRemoval): void;
}

export interface ReviewKey {
  source: string;
  sourceReviewId: string;
}

/** Operations available inside one write transaction. */
export interface StoreTransaction {
  getBusiness(): Promise<Business | null>;
  putBusiness(business: Business): Promise<void>;
  /** The stored reviews with these keys (missing keys are absent from the map, keyed `source\u0000id`). */
  getReviews(keys: readonly ReviewKey[]): Promise<Map<string, StoredReview>>;
  /**
   * Every stored review in pages, for re-deriving after a roster change; with `derivedBefore`,
   * only those whose record an older derivation produced.
   */
  forEachReview(
    pageSize: number,
    fn: (page: StoredReview[]) => Promise<void>,
    filter?: { derivedBefore?: number },
  ): Promise<void>;
  upsertReviews(rows: readonly StoredReview[]): Promise<void>;
  /** Deletes reviews of the given sources whose keys are not in `keep`; returns how many. */
  pruneReviews(sources: readonly string[], keep: ReadonlySet<string>): Promise<number>;
  /** Marks the published data changed; the new version becomes visible at commit. */
  bumpVersion(changedAt: string): Promise<DataState>;
}

/** What `ServiceStore.watch` tells its listeners. */
export type WatchEvent = 'change' | 'listening' | 'lost';

/**
 * What the service's request-serving thread uses: the data version (to notice changes), MCP
 * sessions, the WebSub queues and the shared rate limits. Each call is asynchronous and never runs
 * a synchronous driver on the event loop (the SQLite one runs on the store's own thread).
 */
export interface ServiceStore {
  readonly engine: 'sqlite' | 'postgres';
  /** A human-readable location for logs (never credentials). */
  readonly location: string;
  readonly sessions: SessionStore;
  /** Subscriptions and work queues of the WebSub hub. */
  readonly websub: WebSubStore;
  readonly rates: RateStore;
  state(): Promise<DataState>;
  /**
   * Tells `listener` of committed changes, for stores that can tell (PostgreSQL's LISTEN/NOTIFY):
   * `change` when a change to the published data is committed by any process (the publisher then
   * rebuilds at once instead of at its next poll); `listening` as soon as the store listens for
   * the listener, and again whenever it listens anew after losing its link (a change may have
   * been committed while nobody listened, so the listener looks at `state()` then); `lost` when
   * it stops listening (a lost connection, or one that no longer proves that notifications reach
   * it): until the next `listening`, changes go unannounced, and the listener polls. Absent for
   * stores that cannot tell (SQLite: polling only). Returns the unsubscribe.
   */
  watch?(listener: (event: WatchEvent) => void): () => void;
  close(): Promise<void>;
}

/**
 * The narrow storage interface every feature uses: the service's part, plus reading the published
 * data, writing it in one transaction and the insights' stored analyses (used by the build worker,
 * the import and the other commands). Implementations: SQLite (embedded default) and PostgreSQL
 * (several instances on one database), proven by one contract suite (`store-contract.ts`).
 * Nothing outside `src/store` may depend on the engine behind it.
 */
export interface Store extends ServiceStore {
  /** Everything published: hidden reviews (see `moderation`) are left out. */
  readDataset(): Promise<Dataset>;
  /**
   * The same data in one consistent read, the reviews in published order (`domain/order.ts`) and
   * handed over one at a time: the reader never needs them all as text at once (the build worker
   * writes each into `/reviews.json` as it comes).
   */
  readPublished(reader: PublishedReader): Promise<void>;
  /** Stored reviews, hidden ones included. */
  countReviews(): Promise<number>;
  /** How many stored records an older derivation (below `version`) produced. */
  countDerivedBefore(version: number): Promise<number>;
  /**
   * Runs `fn` in one write transaction: everything it writes commits together or not at all.
   * Readers see none of it before the commit. When another writer commits a change to the reviews
   * meanwhile, the transaction may fail with `ConcurrentChangeError` and write nothing.
   */
  transaction<T>(fn: (tx: StoreTransaction) => Promise<T>): Promise<T>;
  /** Per-text analyses of the insights engine, kept across restarts. */
  readonly analyses: AnalysisStore;
  /** Reviews hidden from publication by an operator, and the log of those decisions. */
  readonly moderation: ModerationStore;
  /** The configured review sources' leases and last runs (`src/sources`), shared by every instance. */
  readonly sources: SourceRunStore;
  /**
   * Copies the whole store, consistently, to a new file at `path` while it stays in use (SQLite's
   * online backup). Absent for engines with their own tools (PostgreSQL: pg_dump).
   */
  backup?(path: string): Promise<void>;
  /** The whole store as rows, to copy it into an empty store of either engine. */
  readonly transfer: StoreTransfer;
}

/** The key used in `getReviews` maps. */
export function reviewKey(source: string, sourceReviewId: string): string {
  return `${source}\u0000${sourceReviewId}`;
}
