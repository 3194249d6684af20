import { DeadlineError, withDeadline } from './internal/deadline.js';
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
  RateDecision,
  RateStore,
  ServiceStore,
  SessionStore,
  Store,
  StoreTransaction,
  StoredReview,
} from './types.js';
export { ConcurrentChangeError, reviewKey } from './types.js';
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
 * The store named by `DATABASE_URL` cannot be opened (a folder that cannot be created, a file
 * that is not a database, no permission, no answer in time): one line for the operator.
 */
export class StoreOpenError extends Error {
  override name = 'StoreOpenError';
}

/** The first line of what went wrong, with SQLite's code (its messages do not name it). */
function describeOpenFailure(err: unknown): string {
  const e = err as { message?: unknown; code?: unknown } | null;
  const message = typeof e?.message === 'string' ? e.message : String(err);
  const first = message.split('\n')[0]!.trim();
  return typeof e?.code === 'string' && e.code.startsWith('SQLITE')
    ? `${first} (${e.code})`
    : first;
}

/**
 * How long opening the store may take: longer than SQLite's busy timeout (10 s), so that a
 * database another process keeps locked reports itself as such.
 */
export const STORE_OPEN_DEADLINE_MS = 15_000;

/**
 * Opens the store and reads its data version once, within `deadlineMs`: whatever goes wrong,
 * the caller gets a one-line `StoreOpenError` instead of a hang or a stack trace, whether the
 * store opens synchronously or answers from another thread. A store that answers after the
 * deadline is closed.
 */
export function openStoreWithin(
  databaseUrl: string,
  deadlineMs = STORE_OPEN_DEADLINE_MS,
): Promise<Store> {
  return openWithin(databaseUrl, async () => openStore(databaseUrl), deadlineMs);
}

/**
 * Opens the store for the service's request-serving thread (for SQLite, on a thread of its own:
 * see `openThreadedSqliteStore`), with the deadline and the one-line errors of `openStoreWithin`.
 */
export function openServiceStore(
  databaseUrl: string,
  deadlineMs = STORE_OPEN_DEADLINE_MS,
): Promise<ServiceStore> {
  return openWithin(
    databaseUrl,
    async () => {
      if (databaseUrl.startsWith('sqlite:'))
        return openThreadedSqliteStore(databaseUrl.slice('sqlite:'.length));
      throw new Error(`unsupported DATABASE_URL scheme: ${databaseUrl.split(':')[0]}`);
    },
    deadlineMs,
  );
}

async function openWithin<S extends ServiceStore>(
  databaseUrl: string,
  open: () => Promise<S>,
  deadlineMs: number,
): Promise<S> {
  const opening = (async () => {
    const store = await open();
    try {
      await store.state();
      return store;
    } catch (err) {
      await store.close().catch(() => undefined);
      throw err;
    }
  })();
  try {
    return await withDeadline(
      opening,
      deadlineMs,
      (late) => void late.close().catch(() => undefined),
    );
  } catch (err) {
    const why = err instanceof DeadlineError ? err.message : describeOpenFailure(err);
    throw new StoreOpenError(`cannot open the store DATABASE_URL=${databaseUrl}: ${why}`);
  }
}
