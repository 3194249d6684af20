import { setTimeout as delay } from 'node:timers/promises';
import { describeError } from '../cli.js';
import { retryConcurrentChanges } from '../import/index.js';
import type { Logger } from '../logger.js';
import type { Store } from '../store/index.js';
import type { ReviewSource, SourceResult } from './types.js';

/**
 * How long a run's lease lasts without renewal: an instance that dies mid-run holds its sources
 * at most this long. The running instance renews it every quarter of it.
 */
export const LEASE_MS = 10 * 60_000;

/** How often a run that waits for another instance's looks at the lease again. */
export const WAIT_POLL_MS = 1_000;

/** How one run of a source is made. */
export interface RunOptions {
  store: Store;
  logger: Logger;
  /** Who runs it (this instance or command: host, process and a random part). */
  holder: string;
  full?: boolean;
  dryRun?: boolean;
  /** How long to wait when another instance runs the source (0: do not wait, `busy`). */
  waitMs?: number;
  signal?: AbortSignal;
  now?: () => number;
}

/** How a run ended: it ran, it failed (the reason in one line), or another instance ran it. */
export type RunOutcome =
  | { status: 'ran'; result: SourceResult }
  | { status: 'failed'; error: string }
  | { status: 'busy' };

/** The reason of a failed run, on one line (a source's errors never hold a secret). */
export function reasonOf(err: unknown): string {
  return describeError(err).replace(/\s+/g, ' ').trim();
}

/** Takes the source's lease, waiting (bounded) while another instance holds it. */
async function takeLease(source: ReviewSource, o: RunOptions): Promise<boolean> {
  const now = o.now ?? Date.now;
  const giveUpAt = now() + (o.waitMs ?? 0);
  for (;;) {
    if (await o.store.sources.acquire(source.name, o.holder, now(), LEASE_MS)) return true;
    if (now() + WAIT_POLL_MS > giveUpAt || o.signal?.aborted) return false;
    await delay(WAIT_POLL_MS);
  }
}

/** Renews the lease while the run goes on; returns the stop. */
function keepLease(source: ReviewSource, o: RunOptions): () => void {
  const now = o.now ?? Date.now;
  const timer = setInterval(() => {
    o.store.sources.acquire(source.name, o.holder, now(), LEASE_MS).then(
      (held) => {
        if (!held) o.logger.warn({ source: source.name }, 'the source lease was lost mid-run');
      },
      (err: unknown) =>
        o.logger.warn(
          { source: source.name, err: reasonOf(err) },
          'could not renew the source lease',
        ),
    );
  }, LEASE_MS / 4);
  timer.unref();
  return () => clearInterval(timer);
}

/** Runs the source once, as an import (another writer's commit meanwhile: it runs again). */
async function runOnce(source: ReviewSource, o: RunOptions): Promise<SourceResult> {
  const now = o.now ?? Date.now;
  const previous = await o.store.sources.get(source.name);
  return retryConcurrentChanges(() =>
    source.run({
      name: source.name,
      store: o.store,
      previous,
      full: o.full ?? false,
      dryRun: o.dryRun ?? false,
      signal: o.signal ?? new AbortController().signal,
      logger: o.logger,
      now: now(),
    }),
  );
}

function logRan(source: ReviewSource, o: RunOptions, result: SourceResult): void {
  const r = result.report;
  o.logger.info(
    {
      source: source.name,
      full: result.full,
      dryRun: r.dryRun,
      inserted: r.inserted,
      updated: r.updated,
      removed: r.pruned,
      restored: result.restored,
      rejected: r.rejected.length,
      version: r.version,
    },
    'source synced',
  );
}

/**
 * Runs one source once under its lease in the store, so that no two instances run it at once:
 * records the outcome (the last success, full pass and cursor, or the reason of the failure)
 * and logs one line either way (a failure's reason on one line, never a stack trace). A dry run
 * takes no lease and records nothing.
 */
export async function runSource(source: ReviewSource, o: RunOptions): Promise<RunOutcome> {
  const now = o.now ?? Date.now;
  if (!o.dryRun && !(await takeLease(source, o))) return { status: 'busy' };
  const stop = o.dryRun ? () => {} : keepLease(source, o);
  try {
    const result = await runOnce(source, o);
    stop();
    if (!o.dryRun) {
      const outcome = { at: now(), error: null, full: result.full, cursor: result.cursor };
      await o.store.sources.finish(source.name, o.holder, outcome);
    }
    logRan(source, o, result);
    return { status: 'ran', result };
  } catch (err) {
    stop();
    const error = reasonOf(err);
    o.logger.error({ source: source.name, reason: error }, 'source sync failed');
    if (!o.dryRun) {
      const outcome = { at: now(), error, full: false, cursor: null };
      await o.store.sources.finish(source.name, o.holder, outcome).catch(() => false);
    }
    return { status: 'failed', error };
  }
}

/** A holder name for this process: its host and pid, and a random part. */
export function holderName(hostname: string, pid: number): string {
  return `${hostname}:${pid}:${Math.random().toString(36).slice(2, 10)}`;
}
