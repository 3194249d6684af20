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
}
