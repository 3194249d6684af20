import type { Logger } from '../logger.js';
import type { SourceRun, Store } from '../store/index.js';
import { reasonOf, runSource, type RunOutcome } from './run.js';
import type { ReviewSource, SourceStatus } from './types.js';

/** What the scheduler runs, and how often. */
export interface SchedulerOptions {
  sources: readonly ReviewSource[];
  store: Store;
  logger: Logger;
  holder: string;
  /**
   * From the end of one run of a source to the start of its next (`SYNC_INTERVAL_SECONDS`); 0
   * runs nothing and only reads each source's status from the store (`sync` runs them).
   */
  intervalMs: number;
  /** Before each source's first run (0: at once). */
  firstDelayMs?: number;
}

/** How often the status of sources this instance does not run is read from the store. */
export const STATUS_POLL_MS = 30_000;

/** The running scheduler. */
export interface SourceScheduler {
  /** Each source's status, as `/healthz` shows it (what this instance last read of the store). */
  status(): SourceStatus[];
  /** Tells the status of each source as it changes. */
  onStatus(listener: (status: SourceStatus[]) => void): void;
  /** Tells how each of this instance's runs of a source ended (`ran`, `failed`, `busy`). */
  onRun(listener: (name: string, outcome: RunOutcome['status']) => void): void;
  /** Stops scheduling, aborts the runs under way and waits for them to end. */
  stop(): Promise<void>;
}

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

function statusOf(name: string, run: SourceRun | null, nextRunAt: number | null): SourceStatus {
  return {
    name,
    lastSuccessAt: iso(run?.lastSuccessAt ?? null),
    lastError: run?.lastError ?? null,
    nextRunAt: iso(nextRunAt),
  };
}

/**
 * Runs every source again and again: each on its own chain of timers (a run never overlaps the
 * same source's previous one), `intervalMs` after the end of the last, under its lease in the
 * store (a source another instance runs now is left to it). A failed run is logged by
 * `runSource` and tried again at the next interval; the service keeps serving meanwhile. With
 * `intervalMs` 0 it runs nothing, and reads each source's status every `STATUS_POLL_MS`.
 */
export function startSourceScheduler(o: SchedulerOptions): SourceScheduler {
  const aborted = new AbortController();
  const watchOnly = o.intervalMs === 0;
  const statuses = new Map(o.sources.map((s) => [s.name, statusOf(s.name, null, null)]));
  const listeners = new Set<(status: SourceStatus[]) => void>();
  const runListeners = new Set<(name: string, outcome: RunOutcome['status']) => void>();
  const timers = new Set<NodeJS.Timeout>();
  const running = new Set<Promise<void>>();
  const all = (): SourceStatus[] => [...statuses.values()];
  const changed = (name: string, run: SourceRun | null, next: number | null): void => {
    statuses.set(name, statusOf(name, run, next));
    for (const listener of listeners) listener(all());
  };
  const read = (source: ReviewSource): Promise<SourceRun | null> =>
    o.store.sources.get(source.name).catch((err: unknown) => {
      o.logger.warn({ source: source.name, err: reasonOf(err) }, 'could not read the source runs');
      return null;
    });
  const later = (delayMs: number, work: () => Promise<void>): void => {
    if (aborted.signal.aborted) return;
    const timer = setTimeout(() => {
      timers.delete(timer);
      const done = work().finally(() => running.delete(done));
      running.add(done);
    }, delayMs);
    timers.add(timer);
  };
  const schedule = (source: ReviewSource, delayMs: number, run: SourceRun | null): void => {
    if (aborted.signal.aborted) return;
    changed(source.name, run, Date.now() + delayMs);
    later(delayMs, () => tick(source));
  };
  const told = (name: string, outcome: RunOutcome['status']): void => {
    for (const listener of runListeners) listener(name, outcome);
  };
  const tick = async (source: ReviewSource): Promise<void> => {
    const common = { store: o.store, logger: o.logger, holder: o.holder };
    // The lease itself cannot be taken while the store is away: logged, and tried again later.
    const outcome = await runSource(source, { ...common, signal: aborted.signal }).catch(
      (err: unknown) => {
        o.logger.error({ source: source.name, reason: reasonOf(err) }, 'source sync failed');
        return { status: 'failed' as const, error: reasonOf(err) };
      },
    );
    told(source.name, outcome.status);
    schedule(source, o.intervalMs, await read(source));
  };
  const watch = async (): Promise<void> => {
    for (const source of o.sources) changed(source.name, await read(source), null);
    later(STATUS_POLL_MS, watch);
  };
  if (watchOnly) later(0, watch);
  else for (const source of o.sources) schedule(source, o.firstDelayMs ?? 0, null);
  return {
    status: all,
    onStatus: (listener) => void listeners.add(listener),
    onRun: (listener) => void runListeners.add(listener),
    async stop() {
      aborted.abort();
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      await Promise.all(running);
    },
  };
}
