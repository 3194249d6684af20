import { createFailureLog, type Logger } from '../logger.js';
import { createBackoff, type BackoffOptions } from './backoff.js';
import type { Staleness } from './types.js';

/** The outcome of the publisher's refreshes: what it logs, when it retries, what `/healthz` says. */
export interface RefreshHealth {
  /** A refresh worked (the served version is the store's newest). */
  succeeded(): void;
  /**
   * A refresh failed: `newer` is the version the store was seen to hold (a build failed), or
   * `null` when the store could not be read.
   */
  failed(err: unknown, newer: number | null): void;
  /** The delay before the next attempt while refreshes fail, `null` while they work. */
  retryIn(): number | null;
  stale(): Staleness | null;
}

/**
 * Keeps the record of the publisher's refreshes: while they fail (the store away, or a version
 * that cannot be built), each failure is logged once, then once a minute, and its recovery
 * (`createFailureLog`); the next attempt waits a backoff delay; and the served version is stale
 * since the first failure, until a refresh works.
 */
export function createRefreshHealth(
  logger: Logger,
  retry: BackoffOptions,
  now: () => number = Date.now,
): RefreshHealth {
  const failures = createFailureLog(logger, {
    failed: 'could not rebuild the published data',
    recovered: 'rebuilding the published data works again',
  });
  const backoff = createBackoff(retry);
  let delay: number | null = null;
  let stale: Staleness | null = null;
  return {
    succeeded() {
      failures.succeeded();
      backoff.reset();
      delay = null;
      stale = null;
    },
    failed(err, newer) {
      failures.failed(err);
      delay = backoff.next();
      const t = now();
      stale = {
        since: stale?.since ?? t,
        reason: staleReason(newer),
        newerVersion: newer ?? stale?.newerVersion ?? null,
        // Only while the store answers: a build cut short by an outage is not a stuck instance.
        behindSince: newer === null ? null : (stale?.behindSince ?? t),
      };
    },
    retryIn: () => delay,
    stale: () => stale,
  };
}

/** The public line of a failed refresh: the store unread, or a version not published. */
function staleReason(newer: number | null): string {
  return newer === null
    ? 'the store could not be read'
    : `data version ${newer} could not be published`;
}
