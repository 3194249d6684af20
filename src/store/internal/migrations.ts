/**
 * The schema migrations of both engines, in one list (each version in a file of `schema/`): each
 * version has its SQLite and its PostgreSQL SQL, applied in order, one transaction each, by one
 * runner (`runMigrations`) under each engine's lock. Never edit a shipped migration (existing stores have applied it): append a
 * new version with both engines' SQL.
 *
 * Column types of the PostgreSQL schema: times that the code passes as milliseconds since the
 * epoch (WebSub, sessions, rate windows) are BIGINT, and RFC 3339 times (data version, reviews,
 * moderation) are TIMESTAMPTZ; ids and versions are BIGINT. JSON records stay TEXT, so that every
 * byte the service publishes (and the business record it compares) comes back as it was written.
 */

import { v1 } from './schema/v1-reviews.js';
import { v2 } from './schema/v2-sessions.js';
import { v3 } from './schema/v3-websub.js';
import { v4 } from './schema/v4-text-analyses.js';
import { v5 } from './schema/v5-derived-version.js';
import { v6 } from './schema/v6-moderation.js';
import { v7 } from './schema/v7-rate-windows.js';
import { v8 } from './schema/v8-mcp-subscriptions.js';
import { v9 } from './schema/v9-review-changes.js';
import { v10 } from './schema/v10-source-runs.js';
import { v11 } from './schema/v11-source-reviews.js';

export interface Migration {
  version: number;
  name: string;
  sqlite: string;
  postgres: string;
}

/** Every version, in order. */
export const MIGRATIONS: readonly Migration[] = [v1, v2, v3, v4, v5, v6, v7, v8, v9, v10, v11];

type MaybePromise<T> = T | Promise<T>;

/** Runs `next` on the value, at once when it is one, after it when it is a promise. */
function then<T, U>(value: MaybePromise<T>, next: (value: T) => MaybePromise<U>): MaybePromise<U> {
  return value instanceof Promise ? value.then(next) : next(value);
}

/**
 * What the runner needs of an engine: its table of applied versions, its lock and its SQL. A
 * synchronous driver (SQLite) returns plain values, an asynchronous one (PostgreSQL) promises.
 */
export interface MigrationTarget<R extends MaybePromise<void>> {
  /** Creates the table of applied versions when it is missing. */
  prepare(): R;
  /** The versions applied so far. */
  applied(): MaybePromise<ReadonlySet<number>>;
  /**
   * Runs `fn` in one transaction that holds the engine's migration lock (SQLite's write lock,
   * PostgreSQL's advisory lock): commits what it did, or rolls back and rethrows.
   */
  locked(fn: () => R): R;
  /** Runs the engine's SQL of `migration` and records its version (inside `locked`). */
  apply(migration: Migration): R;
}

/**
 * Applies every migration not applied yet, in order, each in its own locked transaction that
 * first looks again whether another process applied it while this one waited for the lock: two
 * instances started together migrate once. Returns a promise when the target is asynchronous.
 */
export function runMigrations(target: MigrationTarget<void>): void;
export function runMigrations(target: MigrationTarget<Promise<void>>): Promise<void>;
export function runMigrations(target: MigrationTarget<MaybePromise<void>>): MaybePromise<void> {
  const from = (applied: ReadonlySet<number>, index: number): MaybePromise<void> => {
    const migration = MIGRATIONS[index];
    if (!migration) return;
    if (applied.has(migration.version)) return from(applied, index + 1);
    const once = () =>
      then(target.applied(), (now) =>
        now.has(migration.version) ? undefined : target.apply(migration),
      );
    return then(target.locked(once), () => from(applied, index + 1));
  };
  return then(target.prepare(), () => then(target.applied(), (applied) => from(applied, 0)));
}
