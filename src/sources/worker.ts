import { Worker } from 'node:worker_threads';
import type { Logger } from '../logger.js';
import { workerUrl } from '../platform/rpc.js';
import type { SourceSettings } from './configured.js';
import type { RunOutcome } from './run.js';
import type { SourceRunCounts, SourceStatus } from './types.js';

/** What the sync thread is started with. */
export interface SyncWorkerData {
  databaseUrl: string;
  logLevel: string;
  settings: SourceSettings;
  /** Before each source's first run. */
  firstDelayMs: number;
}

/** What the sync thread tells the service. */
export type SyncMessage =
  | { event: 'status'; status: SourceStatus[] }
  | { event: 'run'; name: string; outcome: RunOutcome['status'] }
  | { event: 'failed'; reason: string }
  | { event: 'stopped' };

/** The sync thread as the service sees it. */
export interface SyncWorker {
  /** Each configured source's status, for `/healthz`. */
  status(): readonly SourceStatus[];
  /** How this instance's runs of each source ended since the service started (for metrics). */
  runs(): SourceRunCounts[];
  /** Stops the runs (those under way are aborted and write nothing) and the thread. */
  stop(): Promise<void>;
}

/**
 * How long `stop` waits for the runs under way to end before it ends the thread: well inside the
 * service's own shutdown deadline (src/shutdown.ts), which must end the process within 10 s.
 */
const STOP_WAIT_MS = 3_000;

/** The wait before a dead thread's replacement: doubled at each death in a row, at most the last. */
export const RESTART_BACKOFF_MS = [1_000, 60_000] as const;

/** A thread that lived this long had no death in a row: the next one waits the first backoff. */
const HEALTHY_MS = 10 * 60_000;

/** The sync thread's store: on PostgreSQL a small pool of its own (`pool_size` 2 unless set). */
export function syncDatabaseUrl(databaseUrl: string): string {
  if (!/^postgres(ql)?:/i.test(databaseUrl)) return databaseUrl;
  const url = new URL(databaseUrl);
  if (!url.searchParams.has('pool_size')) url.searchParams.set('pool_size', '2');
  return url.toString();
}

/** The run counts of `names`, kept across the threads that replace each other. */
function runCounter(names: readonly string[]) {
  const counts = new Map(names.map((name) => [name, { name, ran: 0, failed: 0, busy: 0 }]));
  return {
    add(name: string, outcome: RunOutcome['status']): void {
      const c = counts.get(name) ?? { name, ran: 0, failed: 0, busy: 0 };
      c[outcome]++;
      counts.set(name, c);
    },
    all: (): SourceRunCounts[] => [...counts.values()].map((c) => ({ ...c })),
  };
}

/**
 * Starts the sync thread (`thread.ts`), which runs every configured source every
 * `settings.intervalMs` on a store of its own. A thread that dies outside a run (it could not
 * open its store, an error escaped it) is logged once and replaced after a backoff (1 s,
 * doubled at each death in a row, at most a minute); the service keeps serving meanwhile, and
 * keeps the sources' last status and their run counts.
 */
export function startSyncWorker(
  data: SyncWorkerData,
  logger: Logger,
  names: readonly string[] = [],
): SyncWorker {
  const workerData = { ...data, databaseUrl: syncDatabaseUrl(data.databaseUrl) };
  let status: readonly SourceStatus[] = names.map((name) => ({
    name,
    lastSuccessAt: null,
    lastError: null,
    nextRunAt: null,
  }));
  const counter = runCounter(names);
  let current: Worker | null = null;
  let stopping = false;
  let deaths = 0;
  let restart: NodeJS.Timeout | null = null;
  const start = (): void => {
    restart = null;
    const startedAt = Date.now();
    let reason = 'the thread ended';
    const worker = new Worker(workerUrl(import.meta.url, './thread.js'), { workerData });
    current = worker;
    worker.on('message', (message: SyncMessage) => {
      if (message.event === 'status') status = message.status;
      else if (message.event === 'run') counter.add(message.name, message.outcome);
      else if (message.event === 'failed') reason = `it could not start: ${message.reason}`;
    });
    worker.on('error', (err) => (reason = err.message.replace(/\s+/g, ' ')));
    worker.on('exit', (code) => {
      current = null;
      if (stopping) return;
      if (Date.now() - startedAt >= HEALTHY_MS) deaths = 0;
      const [first, most] = RESTART_BACKOFF_MS;
      const waitMs = Math.min(most, first * 2 ** deaths++);
      logger.error({ reason, exitCode: code, restartInMs: waitMs }, 'the sync thread died');
      restart = setTimeout(start, waitMs);
      restart.unref();
    });
  };
  start();
  return {
    status: () => status,
    runs: counter.all,
    async stop() {
      stopping = true;
      if (restart !== null) clearTimeout(restart);
      const worker = current;
      if (worker === null) return;
      const stopped = new Promise<void>((resolve) => {
        worker.on('message', (m: SyncMessage) => m.event === 'stopped' && resolve());
        worker.on('exit', () => resolve());
        setTimeout(resolve, STOP_WAIT_MS).unref();
      });
      worker.postMessage('stop');
      await stopped;
      await worker.terminate();
    },
  };
}
