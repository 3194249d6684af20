/**
 * The store's public surface: the interfaces every feature uses, the openers, and the store's
 * error codes. One folder per capability, each with its types and both engines side by side:
 * `core` (the data version, the published data, the write transaction, the openers), `changes`
 * (the change feed of the published reviews), `sessions`,
 * `analyses`, `moderation`, `rates`, `source-runs` (the review sources' leases), `transfer` and `hub` (the WebSub hub's subscriptions and
 * queues). Nothing outside `src/store` imports anything else from it.
 */
export type { AnalysisStore } from './analyses/types.js';
export type { ChangeFeedHead, RemovalReason, ReviewRemoval } from './changes/types.js';
export type {
  DataState,
  Dataset,
  PublishedHead,
  PublishedReader,
  ReviewKey,
  ServiceStore,
  Store,
  StoreTransaction,
  StoredReview,
  WatchEvent,
} from './core/types.js';
export { reviewKey } from './core/types.js';
export type { ModerationOutcome, ModerationRecord, ModerationStore } from './moderation/types.js';
export type { RateDecision, RateStore } from './rates/types.js';
export type { SessionStore } from './sessions/types.js';
export type {
  Reconciled,
  SourceListing,
  SourceOutcome,
  SourceRun,
  SourceRunStore,
} from './source-runs/types.js';
export { LISTED_AGAIN, REMOVED_AT_SOURCE, sourceActor } from './source-runs/types.js';
export type { StoreTransfer, TableCounts, TableRows } from './transfer/types.js';
export type {
  ClaimOptions,
  ClaimedDelivery,
  ClaimedIntent,
  FailureResult,
  IntentMode,
  IntentOutcome,
  NewIntent,
  NewSubscription,
  PendingDelivery,
  Subscription,
  TopicState,
  WebSubStore,
} from './hub/types.js';
export {
  CONCURRENT_CHANGE,
  DEADLINE,
  isStoreBusy,
  STORE_BUSY,
  STORE_NOT_EMPTY,
  STORE_OPEN_FAILED,
} from './errors.js';
export {
  databaseUrlProblem,
  isStoreUnavailable,
  maskDatabaseUrl,
  openExistingStoreWithin,
  openServiceStore,
  openStore,
  openStoreWithin,
  STORE_ERROR_KINDS,
  STORE_OPEN_DEADLINE_MS,
  storeErrorKind,
  withExistingStore,
} from './core/open.js';
export type { StoreErrorKind } from './core/open.js';
