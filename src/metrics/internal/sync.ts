/**
 * The review sources: each turn of a source on this instance and how the source stood after it,
 * and when it last succeeded, from the status the sync thread sends for `/healthz`.
 */
import type { Registry } from 'prom-client';
import type { SourceStatus } from '../../sources/index.js';
import { counter, gauge } from './declare.js';

/** How often the status the sync thread last sent is looked at (a reference compared). */
export const STATUS_POLL_MS = 1_000;

/**
 * Counts a run for each status whose `nextRunAt` moved (a turn of this instance ended, and the
 * next was scheduled): `success` when the source's last run then had no error, else `failure`.
 * Source names come from the configuration (`gbp`, each watched URL's name): bounded.
 */
export function syncMetrics(
  registry: Registry,
): (status: () => readonly SourceStatus[]) => () => void {
  const runs = counter(
    registry,
    'dealer_reviews_sync_runs_total',
    'Turns of each review source on this instance, by how the source stood after it (success, failure).',
    ['source', 'outcome'],
  );
  const lastSuccess = gauge(
    registry,
    'dealer_reviews_sync_last_success_timestamp_seconds',
    'When each review source last ran successfully (on any instance), in seconds since the epoch.',
    ['source'],
  );
  return (status) => {
    const nextRuns = new Map<string, string | null>();
    let seen: readonly SourceStatus[] | null = null;
    const look = (): void => {
      const current = status();
      if (current === seen) return;
      seen = current;
      for (const s of current) {
        runs.labels(s.name, 'success').inc(0);
        runs.labels(s.name, 'failure').inc(0);
        const before = nextRuns.get(s.name);
        if (before !== undefined && before !== null && before !== s.nextRunAt) {
          runs.labels(s.name, s.lastError === null ? 'success' : 'failure').inc();
        }
        nextRuns.set(s.name, s.nextRunAt);
        if (s.lastSuccessAt !== null)
          lastSuccess.labels(s.name).set(Date.parse(s.lastSuccessAt) / 1000);
      }
    };
    look();
    const timer = setInterval(look, STATUS_POLL_MS);
    timer.unref();
    return () => clearInterval(timer);
  };
}
