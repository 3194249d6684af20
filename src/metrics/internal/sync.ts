/**
 * The review sources: each run of a source on this instance by its outcome, and when the source
 * last succeeded (the sync thread's counts and the status it sends for `/healthz`).
 */
import type { Registry } from 'prom-client';
import type { SourceRunCounts, SourceStatus } from '../../sources/index.js';
import { counter, gauge } from './declare.js';

/** How often the sync thread's counts and status are read (both are in this thread's memory). */
export const STATUS_POLL_MS = 1_000;

/** What the metrics read of the sync thread (`src/sources`'s `SyncWorker`). */
export interface SyncReadings {
  /** Each source's status, as `/healthz` shows it. */
  status(): readonly SourceStatus[];
  /** How this instance's runs of each source ended since the service started. */
  runs(): readonly SourceRunCounts[];
}

/** The outcome label of each count the sync thread keeps. */
const OUTCOMES = [
  ['success', 'ran'],
  ['failure', 'failed'],
  ['busy', 'busy'],
] as const;

/**
 * Counts each run of a source on this instance by its outcome (`success`, `failure`, `busy`: the
 * lease was held by another instance), from the counts the sync thread keeps across its own
 * restarts, and sets when each source last succeeded from its status. Source names come from the
 * configuration (`gbp`, each watched URL's name): bounded.
 */
export function syncMetrics(registry: Registry): (sync: SyncReadings) => () => void {
  const runs = counter(
    registry,
    'dealer_reviews_sync_runs_total',
    'Runs of each review source on this instance, by outcome (success, failure, busy: another instance held its lease).',
    ['source', 'outcome'],
  );
  const lastSuccess = gauge(
    registry,
    'dealer_reviews_sync_last_success_timestamp_seconds',
    'When each review source last ran successfully (on any instance), in seconds since the epoch.',
    ['source'],
  );
  return (sync) => {
    const counted = new Map<string, number>();
    const look = (): void => {
      for (const source of sync.runs()) {
        for (const [outcome, field] of OUTCOMES) {
          const key = `${source.name}\n${outcome}`;
          const delta = source[field] - (counted.get(key) ?? 0);
          runs.labels(source.name, outcome).inc(Math.max(0, delta));
          counted.set(key, source[field]);
        }
      }
      for (const s of sync.status()) {
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
