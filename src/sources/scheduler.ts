import type { Logger } from '../logger.js';
import type { SourceRun, Store } from '../store/index.js';
import { reasonOf, runSource } from './run.js';
import type { ReviewSource, SourceStatus } from './types.js';

/** What the scheduler runs, and how often. */
export interface SchedulerOptions {
  sources: readonly ReviewSource[];
  store: Store;
  logger: Logger;
  holder: string;
  /** From the end of one run of a source to the start of its next (`SYNC_INTERVAL_SECONDS`). */
  intervalMs: number;
  /** Before each source's first run (0: at once). */
  firstDelayMs?: number;
}

/** The running scheduler. */
export interface SourceScheduler {
  /** Each source's status, as `/healthz` shows it (what this instance last read of the store). */
  status(): SourceStatus[];
  /** Tells the status of each source as it changes. */
  onStatus(listener: (status: SourceStatus[]) => void): void;
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
 * `runSource` and tried again at the next interval; the service keeps serving meanwhile.
 */
export function startSourceScheduler(o: SchedulerOptions): SourceScheduler {
  const aborted = new AbortController();
  const statuses = new Map(o.sources.map((s) => [s.name, statusOf(s.name, null, null)]));
  const listeners = new Set<(status: SourceStatus[]) => void>();
  const timers = new Set<NodeJS.Timeout>();
  const running = new Set<Promise<void>>();
  const all = (): SourceStatus[] => [...statuses.values()];
  const changed = (name: string, run: SourceRun | null, next: number | null): void => {
    statuses.set(name, statusOf(name, run, next));
    for (const listener of listeners) listener(all());
  };
  const schedule = (source: ReviewSource, delayMs: number, run: SourceRun | null): void => {
    if (aborted.signal.aborted) return;
    changed(source.name, run, Date.now() + delayMs);
    const timer = setTimeout(() => {
      timers.delete(timer);
      const work = tick(source).finally(() => running.delete(work));
      running.add(work);
    }, delayMs);
    timers.add(timer);
  };
  const tick = async (source: ReviewSource): Promise<void> => {
    const common = { store: o.store, logger: o.logger, holder: o.holder };
    // The lease itself cannot be taken while the store is away: logged, and tried again later.
    await runSource(source, { ...common, signal: aborted.signal }).catch((err: unknown) => {
      o.logger.error({ source: source.name, reason: reasonOf(err) }, 'source sync failed');
    });
    const run = await o.store.sources.get(source.name).catch((err: unknown) => {
      o.logger.warn({ source: source.name, err: reasonOf(err) }, 'could not read the source runs');
      return null;
    });
    schedule(source, o.intervalMs, run);
  };
  for (const source of o.sources) schedule(source, o.firstDelayMs ?? 0, null);
  return {
    status: all,
    onStatus: (listener) => void listeners.add(listener),
    async stop() {
      aborted.abort();
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      await Promise.all(running);
    },
  };
}
