/**
 * The SQLite store's writes: all on its one writer connection, one at a time (a queue, so that
 * none lands inside another's transaction), each in one `BEGIN IMMEDIATE` transaction. A write
 * waits for another process's lock in SQLite (the busy timeout), or, with `asyncLockWait`, on
 * timers until its deadline, and then fails with `store_busy`.
 */
import type Database from 'better-sqlite3';
import { storeBusy } from '../errors.js';
import type { WriteRunner } from '../internal/sqlite-staged.js';

type Db = Database.Database;

/** How long a connection waits for another writer's lock (SQLite's busy timeout). */
export const LOCK_WAIT_MS = 60_000;
/** How long a request's write waits for the store's write lock by default. */
export const REQUEST_WRITE_WAIT_MS = 2_000;
/** How long a rate counter's write waits (then the limiter lets the request through). */
const RATE_WRITE_WAIT_MS = 250;

const isBusy = (err: unknown): boolean => {
  const code = (err as { code?: unknown } | null)?.code;
  return code === 'SQLITE_BUSY' || code === 'SQLITE_BUSY_SNAPSHOT';
};

/** The store's ways to write, by how long each may wait for the lock. */
export interface SqliteWriter {
  /** Runs `run` after every write queued before it, alone on the writer connection. */
  serialize<T>(run: () => Promise<T>): Promise<T>;
  /** A write that waits for the lock as long as SQLite's busy timeout (`LOCK_WAIT_MS`). */
  write: WriteRunner;
  /** A write made for a request (an MCP session's setting, a WebSub request). */
  requestWrite: WriteRunner;
  /** A rate counter's write: the limiter lets a request through uncounted rather than hold it. */
  rateWrite: WriteRunner;
  /** Settles once every write queued so far has. */
  idle(): Promise<unknown>;
}

/**
 * `BEGIN IMMEDIATE`, retried on timers while another process holds the lock, until `deadline`
 * (or until the caller gave up).
 */
async function beginImmediate(
  writer: Db,
  deadline: number,
  abandoned: () => boolean,
): Promise<void> {
  for (let delay = 1; ; delay = Math.min(delay * 2, 25)) {
    if (abandoned()) throw storeBusy();
    try {
      writer.exec('BEGIN IMMEDIATE');
      return;
    } catch (err) {
      if (!isBusy(err)) throw err;
      if (Date.now() + delay > deadline) throw storeBusy();
    }
    await new Promise((resolve) => setTimeout(resolve, delay));
  }
}

/**
 * Settles as `job` does, or rejects with `store_busy` at `deadline` (and calls `giveUp`, so that
 * a job still queued gives up without running): a request's caller hears of a busy store by its
 * deadline even when its write is queued behind another that waits.
 */
function byDeadline<T>(job: Promise<T>, deadline: number, giveUp: () => void): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(
      () => {
        giveUp();
        reject(storeBusy());
      },
      Math.max(0, deadline - Date.now()),
    );
    job.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (err: unknown) => {
        clearTimeout(timer);
        reject(err as Error);
      },
    );
  });
}

/** The writes of the store whose writer connection is `writer`. */
export function createSqliteWriter(
  writer: Db,
  options: { asyncLockWait: boolean; requestWaitMs: number },
): SqliteWriter {
  let queue: Promise<unknown> = Promise.resolve();
  const serialize = <T>(run: () => Promise<T>): Promise<T> => {
    const next = queue.then(run, run);
    queue = next.catch(() => undefined);
    return next;
  };
  /** Runs `fn` in one write transaction, waiting at most `waitMs` for the lock (queue included). */
  const writeWithin = <T>(fn: () => T, waitMs: number): Promise<T> => {
    if (!options.asyncLockWait) return serialize(async () => writer.transaction(fn).immediate());
    const deadline = Date.now() + waitMs;
    let gaveUp = false;
    const job = serialize(async () => {
      await beginImmediate(writer, deadline, () => gaveUp);
      try {
        const result = fn();
        writer.exec('COMMIT');
        return result;
      } catch (err) {
        if (writer.inTransaction) writer.exec('ROLLBACK');
        throw err;
      }
    });
    if (waitMs >= LOCK_WAIT_MS) return job;
    return byDeadline(job, deadline, () => {
      gaveUp = true;
    });
  };
  const { requestWaitMs } = options;
  return {
    serialize,
    write: (fn) => writeWithin(fn, LOCK_WAIT_MS),
    requestWrite: (fn) => writeWithin(fn, requestWaitMs),
    rateWrite: (fn) => writeWithin(fn, Math.min(requestWaitMs, RATE_WRITE_WAIT_MS)),
    idle: () => queue,
  };
}
