import { openSqliteStore } from './sqlite.js';
import type { Store } from './types.js';

export type {
  AnalysisStore,
  DataState,
  Dataset,
  ModerationOutcome,
  ModerationRecord,
  ModerationStore,
  ReviewKey,
  SessionStore,
  Store,
  StoreTransaction,
  StoredReview,
} from './types.js';
export { reviewKey } from './types.js';
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
