import type { Business } from '../../domain/business.js';
import type { ReviewSource } from '../../domain/review.js';
import type { WebSubStore } from '../websub/types.js';
import type { Dict } from '../../platform/dict.js';

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
}

/** Receives an ordered read: `begin` once, then `review` for each review, in published order. */
export interface PublishedReader {
  begin(head: PublishedHead): void;
  review(json: string): void;
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

/** Shared secrets and ended MCP sessions: what lets several instances agree on sessions. */
export interface SessionStore {
  /**
   * The secret named `name`: the first call stores `candidate`, and every later call (on any
   * instance) returns what was stored.
   */
  secret(name: string, candidate: string): Promise<string>;
  /** True when the session with this key was ended (DELETE) on any instance. */
  isEnded(sessionKey: string): Promise<boolean>;
  /** Records the end of a session, kept until it would have expired anyway. */
  end(sessionKey: string, expiresAtMs: number): Promise<void>;
  /** Forgets ended sessions, and subscriptions, whose expiry has passed; returns how many. */
  purgeEnded(nowMs: number): Promise<number>;
  /** Records that a session subscribed to a resource, until the session's expiry. */
  subscribe(sessionKey: string, uri: string, expiresAtMs: number): Promise<void>;
  unsubscribe(sessionKey: string, uri: string): Promise<void>;
  /** The resources a session subscribed to (empty once it ended or expired). */
  subscriptions(sessionKey: string, nowMs: number): Promise<string[]>;
  /** Records the log level a session asked for (`logging/setLevel`), until its expiry. */
  setLogLevel(sessionKey: string, level: string, expiresAtMs: number): Promise<void>;
  /** The log level a session asked for, or `null` (never set, ended or expired). */
  logLevel(sessionKey: string, nowMs: number): Promise<string | null>;
}

/**
 * Analyses derived from review texts (the insights' per-text ABSA results), kept so that a restart
 * does not analyse every text again. A cache: deleting it costs only recomputation. Keys are
 * opaque (the insights engine hashes the model version with the text).
 */
export interface AnalysisStore {
  /** The stored analyses (JSON text) of these keys; missing keys are absent from the map. */
  get(keys: readonly string[]): Promise<Map<string, string>>;
  /** Stores analyses (key and JSON text), replacing any stored under the same key. */
  put(entries: readonly (readonly [key: string, analysis: string])[]): Promise<void>;
  /** Number of stored analyses. */
  count(): Promise<number>;
  /** Deletes every analysis whose key is not in `keep`; returns how many. */
  retain(keep: ReadonlySet<string>): Promise<number>;
}

/** One operator decision about a review's publication, as the moderation log keeps it. */
export interface ModerationRecord {
  /** The public id of the review (`id` in every document). */
  reviewId: string;
  /** `hide` takes the review out of publication; `unhide` publishes it again. */
  action: 'hide' | 'unhide';
  /** Why, as the operator wrote it. */
  reason: string | null;
  /** Who decided (the operator's name, or the system user and host). */
  actor: string;
  /** When (RFC 3339); also the time of the data version that publishes it. */
  at: string;
}

/**
 * The outcome of a hide or unhide: `changed` (logged and published as data version `state`),
 * `unchanged` (the review already was so: nothing written) or `unknown` (no stored review has this
 * id, nor, for `unhide`, a hide of it: nothing written).
 */
export type ModerationOutcome =
  { status: 'changed'; state: DataState } | { status: 'unchanged' } | { status: 'unknown' };

/**
 * Reviews an operator took out of publication (`dealer-reviews remove`). A hidden review stays
 * stored and imports keep updating it, but `readDataset` leaves it out until it is shown again.
 * The hide is kept by review id, apart from the stored row, so neither importing the same export
 * again nor `--prune` followed by a later import brings the review back.
 */
export interface ModerationStore {
  /**
   * Hides or shows again the review `record.reviewId`: in one transaction, changes its state,
   * appends `record` to the log and bumps the data version (at `record.at`).
   */
  apply(record: ModerationRecord): Promise<ModerationOutcome>;
  /** The ids of the hidden reviews. */
  hiddenIds(): Promise<Set<string>>;
  /** Every hide and unhide of one review, oldest first. */
  log(reviewId: string): Promise<ModerationRecord[]>;
}

/** The outcome of counting one request against its client's budget. */
export type RateDecision = { ok: true } | { ok: false; retryAfterMs: number };

/**
 * Fixed-window request counters kept in the store, so that a limit holds across every instance
 * that shares it (the hub's subscribe requests, MCP's `initialize`).
 */
export interface RateStore {
  /**
   * Counts one request of `key` in the window of `windowMs` that contains `nowMs` (windows start
   * at the first request) and says whether it is within `limit`; when not, how long until the
   * window ends.
   */
  take(key: string, nowMs: number, windowMs: number, limit: number): Promise<RateDecision>;
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
  /**
   * Copies the whole store, consistently, to a new file at `path` while it stays in use (SQLite's
   * online backup). Absent for engines with their own tools (PostgreSQL: pg_dump).
   */
  backup?(path: string): Promise<void>;
  /** The whole store as rows, to copy it into an empty store of either engine. */
  readonly transfer: StoreTransfer;
}

/** Rows of one table, in the form both engines read and write (text, numbers and nulls). */
export interface TableRows {
  table: string;
  /** The column names, in the order of each row's values. */
  columns: readonly string[];
  rows: (string | number | null)[][];
}

/** Rows per table, for the tables a transfer copies. */
export type TableCounts = Dict<number>;

/**
 * The whole store as rows, for moving it to another engine (`dealer-reviews migrate-store`): the
 * reviews (hidden ones too, with their derived records), the business, the data version, the
 * moderation log and hidden set, MCP session secrets, ended sessions and their subscriptions,
 * the WebSub subscriptions, queues and topic states (claims released) and the insights' stored
 * analyses. Not copied: rate-limit windows (they last a minute) and the applied migrations.
 */
export interface StoreTransfer {
  /**
   * Reads every copied table from one consistent snapshot, in batches of at most `batchSize`
   * rows, and hands each batch to `fn` (awaited before the next is read); returns the rows per
   * table. Uses connections of its own: the store stays usable meanwhile.
   */
  exportRows(fn: (batch: TableRows) => Promise<void>, batchSize?: number): Promise<TableCounts>;
  /**
   * Writes what `fill` puts, in one transaction, into this store, which must be empty (no row
   * in any copied table, data version 0): otherwise `StoreNotEmptyError`, and nothing written.
   * Identity sequences continue after the copied ids.
   */
  importRows(fill: (put: (batch: TableRows) => Promise<void>) => Promise<unknown>): Promise<void>;
  /** The rows per copied table. */
  counts(): Promise<TableCounts>;
}

/** `StoreTransfer.importRows` into a store that holds data already: nothing was written. */
export class StoreNotEmptyError extends Error {
  override name = 'StoreNotEmptyError';
}

/**
 * Another writer committed a change to the reviews while a transaction was running: nothing of
 * the transaction was written; running it again sees the other change.
 */
export class ConcurrentChangeError extends Error {
  override name = 'ConcurrentChangeError';
  constructor(options?: ErrorOptions) {
    super(
      'another change to the reviews was committed meanwhile; nothing was written, try again',
      options,
    );
  }
}

/** The key used in `getReviews` maps. */
export function reviewKey(source: string, sourceReviewId: string): string {
  return `${source}\u0000${sourceReviewId}`;
}

/**
 * A write the service makes for a request (a rate counter, an MCP session's setting, a WebSub
 * request) could not take the store's write lock in time: another process (an import, an
 * operator's tool) holds it. Nothing was written; the request is answered 503 with `Retry-After`
 * rather than kept waiting.
 */
export class StoreBusyError extends Error {
  override name = 'StoreBusyError';
  readonly code = 'STORE_BUSY';
  constructor() {
    super('the store is busy: another process holds its write lock; try again shortly');
  }
}

/** True for a `StoreBusyError`, also one thrown on the store's thread (kept by name). */
export function isStoreBusy(err: unknown): boolean {
  return (err as { name?: unknown } | null)?.name === 'StoreBusyError';
}
