import type { DataState } from '../core/types.js';

/** What the store keeps of one configured review source (`src/sources`): its lease and last runs. */
export interface SourceRun {
  name: string;
  /** The instance running it now, or null; the lease holds until `leaseUntil` (ms since the epoch). */
  holder: string | null;
  leaseUntil: number;
  /** When its last run started, succeeded, and was a full pass (ms since the epoch, or null). */
  lastStartedAt: number | null;
  lastSuccessAt: number | null;
  lastFullAt: number | null;
  /** The one-line reason its last run failed, null once a run succeeds. */
  lastError: string | null;
  /** Where the source resumes its next incremental run (its own format), or null. */
  cursor: string | null;
}

/** How a run ended, as `SourceRunStore.finish` records it. */
export interface SourceOutcome {
  /** When it ended (ms since the epoch). */
  at: number;
  /** Null for a success, else the reason in one line (never a secret). */
  error: string | null;
  /** A successful full pass (every record of the source read). */
  full: boolean;
  /** The resume point of a success; null keeps the stored one. */
  cursor: string | null;
}

/** What one run of a source listed, for `SourceRunStore.reconcile`. */
export interface SourceListing {
  /** The public ids of every review the run's input held (imported, or rejected as invalid). */
  ids: ReadonlySet<string>;
  /**
   * The run listed every review of the source (a full pass, or a URL export): the reviews it
   * brought in before and no longer lists are removed.
   */
  full: boolean;
  /** The time of the run (RFC 3339): the removals' and the new data version's. */
  at: string;
  /** Decide only: write nothing. */
  dryRun: boolean;
}

/** What `reconcile` did (or, in a dry run, would do). */
export interface Reconciled {
  /** Public ids of the reviews removed at source (hidden, the reason `removed at source`). */
  removed: string[];
  /** Public ids of reviews the source had removed and lists again (published again). */
  restored: string[];
  /** The new data version, or null when nothing was published differently. */
  state: DataState | null;
}

/** The moderation log's reason of a removal by a source, and of a review it lists again. */
export const REMOVED_AT_SOURCE = 'removed at source';
export const LISTED_AGAIN = 'listed again at source';

/** The moderation log's actor of a source's decisions. */
export const sourceActor = (name: string): string => `source:${name}`;

/**
 * The runs of the configured sources, shared by every instance on the store: a lease per source,
 * so that one instance at a time runs it, and the outcome of its runs (for `/healthz` and for the
 * source's next run).
 */
export interface SourceRunStore {
  /**
   * Takes the lease on `name` for `holder` until `nowMs + leaseMs` when it is free, expired or
   * already `holder`'s (then it is renewed); true when `holder` holds it now.
   */
  acquire(name: string, holder: string, nowMs: number, leaseMs: number): Promise<boolean>;
  /**
   * Ends `holder`'s run of `name`: records `outcome` and frees the lease. False (nothing
   * recorded) when `holder` no longer held it (it expired and another instance took it).
   */
  finish(name: string, holder: string, outcome: SourceOutcome): Promise<boolean>;
  /** What the store keeps of `name`, or null when it never ran. */
  get(name: string): Promise<SourceRun | null>;
  /**
   * After a run of source `name` imported what it listed, in one transaction: records the
   * reviews it brought in (a full pass replaces the record, an incremental run adds to it);
   * a full pass removes the reviews it brought in before and no longer lists, through the
   * moderation path (hidden by `name`, the reason `removed at source` in the log, `deleted` in
   * the change feed); a review `name` removed and lists again is published again. Reviews
   * other sources brought in, and reviews an operator hid, are never touched. One new data
   * version when anything is published differently.
   */
  reconcile(name: string, listing: SourceListing): Promise<Reconciled>;
}
