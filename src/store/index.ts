import { openSqliteStore } from './sqlite.js';
import { openThreadedSqliteStore } from './threaded.js';
import type { ServiceStore, Store } from './types.js';

export type {
  AnalysisStore,
  DataState,
  Dataset,
  ModerationOutcome,
  ModerationRecord,
  ModerationStore,
  ReviewKey,
  ServiceStore,
  SessionStore,
  Store,
  StoreTransaction,
  StoredReview,
} from './types.js';
export { reviewKey } from './types.js';
export { ConcurrentChangeError } from './internal/sqlite-staged.js';
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
} from './websub-types.js';

/**
 * Opens the store named by a `DATABASE_URL` (already validated by the config): `sqlite:<path>`
 * for the embedded store.
 */
export function openStore(databaseUrl: string): Store {
  if (databaseUrl.startsWith('sqlite:'))
    return openSqliteStore(databaseUrl.slice('sqlite:'.length));
  throw new Error(`unsupported DATABASE_URL scheme: ${databaseUrl.split(':')[0]}`);
}

/**
 * Opens the store for the service's request-serving thread: for SQLite, on a thread of its own
 * (see `openThreadedSqliteStore`). Rejects when the store cannot be opened.
 */
export function openServiceStore(databaseUrl: string): Promise<ServiceStore> {
  if (databaseUrl.startsWith('sqlite:'))
    return openThreadedSqliteStore(databaseUrl.slice('sqlite:'.length));
  return Promise.reject(new Error(`unsupported DATABASE_URL scheme: ${databaseUrl.split(':')[0]}`));
}
