/**
 * Opening a store from a `DATABASE_URL`: which engine, the checks and masking of the URL, and the
 * deadline and one-line error (`store_open_failed`) of every opener.
 */
import { existsSync } from 'node:fs';
import { isServiceError } from '../../platform/errors.js';
import { CONCURRENT_CHANGE, DEADLINE, isStoreBusy, storeOpenFailed } from '../errors.js';
import { withDeadline } from '../internal/deadline.js';
import {
  isConflict,
  isPostgresUrl,
  isUnreachable,
  maskPostgresUrl,
  parsePostgresUrl,
} from '../internal/postgres-connection.js';
import { openPostgresStore } from './postgres.js';
import { openSqliteStore } from './sqlite.js';
import { openThreadedSqliteStore } from './threaded.js';
import type { ServiceStore, Store } from './types.js';

/**
 * True when a store call failed because the store cannot take it for now: another process holds
 * SQLite's write lock for longer than a request may wait (`store_busy`), or the PostgreSQL
 * server is away (restarting, unreachable, out of connections). A request meeting it is answered
 * 503 with `Retry-After`, never 500: nothing is wrong with the request or the data.
 */
export function isStoreUnavailable(err: unknown): boolean {
  return isStoreBusy(err) || isUnreachable(err);
}

/** The kinds of store faults, for counting (the metrics' `kind` label). */
export const STORE_ERROR_KINDS = ['busy', 'unreachable', 'conflict', 'deadline', 'other'] as const;
export type StoreErrorKind = (typeof STORE_ERROR_KINDS)[number];

/**
 * What kind of fault a store call failed with: `busy` (SQLite's write lock held too long),
 * `unreachable` (the PostgreSQL server away), `conflict` (a concurrent change, a serialization
 * failure), `deadline` (no answer in time), `other` (anything else: a bug, a full disk).
 */
export function storeErrorKind(err: unknown): StoreErrorKind {
  if (isStoreBusy(err)) return 'busy';
  if (isUnreachable(err)) return 'unreachable';
  // By name and code: a fault thrown on the store's thread arrives as a plain copy.
  const e = err as { name?: unknown; code?: unknown } | null;
  const code = e?.name === 'ServiceError' ? e.code : undefined;
  if (code === CONCURRENT_CHANGE || isConflict(err)) return 'conflict';
  if (code === DEADLINE) return 'deadline';
  return 'other';
}

/**
 * What is wrong with a `DATABASE_URL`, in a few words, or null when a store can be opened from it:
 * `sqlite:<path>`, or `postgres://` / `postgresql://` in libpq's URL form with an optional
 * `pool_size` (1 to 100).
 */
export function databaseUrlProblem(databaseUrl: string): string | null {
  if (/^sqlite:.+/.test(databaseUrl)) return null;
  if (!isPostgresUrl(databaseUrl)) {
    return 'must be sqlite:<path>, postgres://… or postgresql://…';
  }
  try {
    parsePostgresUrl(databaseUrl);
    return null;
  } catch (err) {
    return (err as Error).message;
  }
}

/**
 * A `DATABASE_URL` as logs and messages may show it: a PostgreSQL password is masked, and so is
 * whatever follows `user:` in any other URL with credentials (a mistyped `postgress://u:pw@h/db`
 * or `mysql://…`) and any `password=` parameter.
 */
export function maskDatabaseUrl(databaseUrl: string): string {
  if (isPostgresUrl(databaseUrl)) return maskPostgresUrl(databaseUrl);
  if (databaseUrl.startsWith('sqlite:')) return databaseUrl;
  return (
    databaseUrl
      // Up to the last @: a password may hold an unescaped @ or /, and masking too much is safe.
      .replace(/^([^:/?#]*:\/\/)(.*)@/, (_m, scheme: string, userinfo: string) => {
        const colon = userinfo.indexOf(':');
        const user = colon === -1 ? '' : userinfo.slice(0, colon);
        return `${scheme}${colon === -1 || user.includes('/') ? '***' : `${user}:***`}@`;
      })
      .replace(/(password=)[^&#]*/gi, '$1***')
  );
}

/**
 * Opens the store named by a `DATABASE_URL` (already validated by the config): `sqlite:<path>`
 * for the embedded store, `postgres://…` or `postgresql://…` for PostgreSQL (whose schema is
 * migrated at the first call: `openStoreWithin` waits for it).
 */
export function openStore(databaseUrl: string): Store {
  if (databaseUrl.startsWith('sqlite:'))
    return openSqliteStore(databaseUrl.slice('sqlite:'.length));
  if (isPostgresUrl(databaseUrl)) return openPostgresStore(databaseUrl);
  throw new Error(`unsupported DATABASE_URL scheme: ${databaseUrl.split(':')[0]}`);
}

/**
 * The first line of what went wrong, with SQLite's code or PostgreSQL's SQLSTATE (their messages
 * do not name them).
 */
function describeOpenFailure(err: unknown): string {
  const e = err as { message?: unknown; code?: unknown } | null;
  const message = typeof e?.message === 'string' ? e.message : String(err);
  const first = message.split('\n')[0]!.trim();
  if (typeof e?.code !== 'string') return first;
  if (e.code.startsWith('SQLITE')) return `${first} (${e.code})`;
  return /^[0-9A-Z]{5}$/.test(e.code) ? `${first} (SQLSTATE ${e.code})` : first;
}

/**
 * How long opening the store may take: longer than PostgreSQL's connection timeout (10 s), and
 * shorter than SQLite's busy timeout (a minute), so that a database another process keeps locked
 * while the store would migrate it, or a
 * server that does not answer, reports itself as such.
 */
export const STORE_OPEN_DEADLINE_MS = 15_000;

/**
 * Opens the store and reads its data version once, within `deadlineMs`: whatever goes wrong,
 * the caller gets a one-line `store_open_failed` `ServiceError` instead of a hang or a stack trace, whether the
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
 * Opens a store that must already exist, for the commands that only read or copy one (`backup`,
 * `insights`, `migrate-store --from`): opening a SQLite store creates its file, so a mistyped
 * `DATABASE_URL` would otherwise read an empty store and report nothing wrong. A PostgreSQL
 * database that does not exist already fails to open. `what` names the setting in the message.
 */
export async function openExistingStoreWithin(
  databaseUrl: string,
  what = 'DATABASE_URL',
  deadlineMs = STORE_OPEN_DEADLINE_MS,
): Promise<Store> {
  if (databaseUrl.startsWith('sqlite:')) {
    const path = databaseUrl.slice('sqlite:'.length);
    if (!existsSync(path)) throw storeOpenFailed(`${path}: no such file (${what})`);
  }
  return openStoreWithin(databaseUrl, deadlineMs);
}

/**
 * Runs `use` on the existing store `databaseUrl` names (`openExistingStoreWithin`) and closes it
 * afterwards, whatever `use` did: the operator commands' way to a store.
 */
export async function withExistingStore<T>(
  databaseUrl: string,
  use: (store: Store) => Promise<T>,
): Promise<T> {
  const store = await openExistingStoreWithin(databaseUrl);
  try {
    return await use(store);
  } finally {
    await store.close();
  }
}

/**
 * Opens the store for the service's request-serving thread (for SQLite, on a thread of its own:
 * see `openThreadedSqliteStore`; PostgreSQL's pool is asynchronous already, and used as it is),
 * with the deadline and the one-line errors of `openStoreWithin`.
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
      if (isPostgresUrl(databaseUrl)) return openPostgresStore(databaseUrl);
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
    const why = isServiceError(err, DEADLINE) ? err.message : describeOpenFailure(err);
    throw storeOpenFailed(
      `cannot open the store DATABASE_URL=${maskDatabaseUrl(databaseUrl)}: ${why}`,
    );
  }
}
