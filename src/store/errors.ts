/**
 * The store's faults, as `ServiceError`s of the service's one error model: each code is exported
 * here (and from `store/index.ts`) so that callers test `isServiceError(err, CODE)` without
 * writing the string by hand. The messages are the ones the store always gave.
 */
import { ServiceError } from '../platform/errors.js';

/** A request's write could not take the store's write lock in time (see `storeBusy`). */
export const STORE_BUSY = 'store_busy';
/** Another writer committed a change to the reviews during a transaction (nothing written). */
export const CONCURRENT_CHANGE = 'concurrent_change';
/** `StoreTransfer.importRows` into a store that holds data already (nothing written). */
export const STORE_NOT_EMPTY = 'store_not_empty';
/** The store named by `DATABASE_URL` cannot be opened: one line for the operator. */
export const STORE_OPEN_FAILED = 'store_open_failed';
/** `withDeadline` gave up waiting. */
export const DEADLINE = 'deadline';

/**
 * A write the service makes for a request (a rate counter, an MCP session's setting, a WebSub
 * request) could not take the store's write lock in time: another process (an import, an
 * operator's tool) holds it. Nothing was written; the request is answered 503 with `Retry-After`
 * rather than kept waiting.
 */
export function storeBusy(): ServiceError {
  return new ServiceError(
    STORE_BUSY,
    'the store is busy: another process holds its write lock; try again shortly',
    { status: 503, headers: { 'Retry-After': '2' } },
  );
}

/** True for `storeBusy()`, also one thrown on the store's thread (which keeps name and code). */
export function isStoreBusy(err: unknown): boolean {
  const e = err as { name?: unknown; code?: unknown } | null;
  return e?.name === 'ServiceError' && e.code === STORE_BUSY;
}

/**
 * Another writer committed a change to the reviews while a transaction was running: nothing of
 * the transaction was written; running it again sees the other change.
 */
export function concurrentChange(options: { cause?: unknown } = {}): ServiceError {
  return new ServiceError(
    CONCURRENT_CHANGE,
    'another change to the reviews was committed meanwhile; nothing was written, try again',
    { status: 409, cause: options.cause },
  );
}

/** `StoreTransfer.importRows` into a store that holds data already: nothing was written. */
export function storeNotEmpty(message: string): ServiceError {
  return new ServiceError(STORE_NOT_EMPTY, message, { status: 409 });
}

/**
 * The store named by `DATABASE_URL` cannot be opened (a folder that cannot be created, a file
 * that is not a database, no permission, no answer in time): one line for the operator.
 */
export function storeOpenFailed(message: string): ServiceError {
  return new ServiceError(STORE_OPEN_FAILED, message, { status: 503 });
}

/** `withDeadline` gave up waiting after `ms`. */
export function deadlineExceeded(ms: number): ServiceError {
  return new ServiceError(DEADLINE, `no answer within ${ms / 1000} s`, { status: 504 });
}
