/**
 * The SQL of the source runs, written once for both engines: `param` names a parameter in the
 * engine's form (SQLite `@name`, PostgreSQL `$n`), and the engines bind them by name.
 */
import type { SourceRun } from './types.js';

export type Param = (name: string) => string;

/** Inserts or takes over the row of a free, expired or own lease; returns it when taken. */
export const ACQUIRE = (p: Param): string => `
  INSERT INTO source_runs (name, holder, lease_until, last_started_at)
  VALUES (${p('name')}, ${p('holder')}, CAST(${p('until')} AS BIGINT), CAST(${p('now')} AS BIGINT))
  ON CONFLICT (name) DO UPDATE SET
    holder = excluded.holder,
    lease_until = excluded.lease_until,
    last_started_at = CASE WHEN source_runs.holder = excluded.holder
      AND source_runs.lease_until > excluded.last_started_at
      THEN source_runs.last_started_at ELSE excluded.last_started_at END
  WHERE source_runs.holder IS NULL OR source_runs.lease_until <= excluded.last_started_at
    OR source_runs.holder = excluded.holder
  RETURNING name`;

/** Records a run's outcome and frees the lease, when `holder` still holds it. */
export const FINISH = (p: Param): string => `
  UPDATE source_runs SET
    holder = NULL,
    lease_until = 0,
    last_error = CAST(${p('error')} AS TEXT),
    last_success_at = CASE WHEN ${p('ok')} = 1 THEN CAST(${p('at')} AS BIGINT) ELSE last_success_at END,
    last_full_at = CASE WHEN ${p('ok')} = 1 AND ${p('full')} = 1
      THEN CAST(${p('at')} AS BIGINT) ELSE last_full_at END,
    cursor = COALESCE(CAST(${p('cursor')} AS TEXT), cursor)
  WHERE name = ${p('name')} AND holder = ${p('holder')}
  RETURNING name`;

export const GET = (p: Param): string => `
  SELECT name, holder, lease_until, last_started_at, last_success_at, last_full_at, last_error, cursor
  FROM source_runs WHERE name = ${p('name')}`;

/** A row of `source_runs`, as `GET` reads it. */
export interface SourceRunRow {
  name: string;
  holder: string | null;
  lease_until: number;
  last_started_at: number | null;
  last_success_at: number | null;
  last_full_at: number | null;
  last_error: string | null;
  cursor: string | null;
}

export function toSourceRun(row: SourceRunRow): SourceRun {
  return {
    name: row.name,
    holder: row.holder,
    leaseUntil: row.lease_until,
    lastStartedAt: row.last_started_at,
    lastSuccessAt: row.last_success_at,
    lastFullAt: row.last_full_at,
    lastError: row.last_error,
    cursor: row.cursor,
  };
}

/** The named parameters of `finish`. */
export function finishParams(
  name: string,
  holder: string,
  o: { at: number; error: string | null; full: boolean; cursor: string | null },
): Record<string, string | number | null> {
  const ok = o.error === null ? 1 : 0;
  return { name, holder, error: o.error, ok, at: o.at, full: o.full ? 1 : 0, cursor: o.cursor };
}
