/**
 * The source model: a configured origin of reviews that the service runs by itself (every
 * `SYNC_INTERVAL_SECONDS`) and `dealer-reviews sync` runs on demand. A run is an import: the
 * source hands what it read to `src/import` (`runImport`), so it goes through the same
 * validation, derivation, moderation and publishing as a file an operator imports.
 */
import type { ImportSummary } from '../import/index.js';
import type { Logger } from '../logger.js';
import type { SourceRun, Store } from '../store/index.js';

/** What a source's run is given. */
export interface SourceContext {
  /** The source's name (its lease, and what the store records it brought in). */
  readonly name: string;
  /** The store it imports into (its own connections, off the service's event loop). */
  readonly store: Store;
  /** What the store kept of this source's earlier runs (its cursor, its last full pass), or null. */
  readonly previous: SourceRun | null;
  /** A full pass was asked for (`sync --full`); the source may also decide on one itself. */
  readonly full: boolean;
  /** Read everything, write nothing: the report says what the run would do. */
  readonly dryRun: boolean;
  /** Aborted when the service stops: the source ends its run early, writing nothing. */
  readonly signal: AbortSignal;
  readonly logger: Logger;
  /** The time of the run (ms since the epoch). */
  readonly now: number;
}

/** The outcome of one run. */
export interface SourceResult {
  /**
   * The import's row report: inserted, updated, removed at source (`pruned`), rejected with
   * reasons.
   */
  readonly report: ImportSummary;
  /** Reviews the source had removed and lists again, published again. */
  readonly restored: number;
  /** The run read every review of the source (a removal is only ever decided by a full pass). */
  readonly full: boolean;
  /** Where the next incremental run resumes (the source's own format); null keeps the stored one. */
  readonly cursor: string | null;
}

/** A configured origin of reviews (Google Business Profile, a watched export URL). */
export interface ReviewSource {
  /** Its name in logs, `/healthz` and the store's lease (`gbp`, `url:<host>/<path>`). */
  readonly name: string;
  run(context: SourceContext): Promise<SourceResult>;
}

/** What `/healthz` tells of a source (times in RFC 3339). */
export interface SourceStatus {
  name: string;
  lastSuccessAt: string | null;
  /** The reason its last run failed (one line, never a secret); null once a run succeeds. */
  lastError: string | null;
  /** When this instance runs it next; null when scheduled sync is off. */
  nextRunAt: string | null;
}

/**
 * How this instance's runs of a source ended since the service started (for metrics): runs that
 * ran (`ran`), failed, or found the source held by another instance (`busy`).
 */
export interface SourceRunCounts {
  name: string;
  ran: number;
  failed: number;
  busy: number;
}
