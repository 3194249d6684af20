import { once } from 'node:events';
import { Worker } from 'node:worker_threads';
import type { Logger } from '../logger.js';
import { workerUrl } from '../platform/rpc.js';
import type { SourceSettings } from './configured.js';
import type { SourceStatus } from './types.js';

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
  | { event: 'failed'; reason: string }
  | { event: 'stopped' };

/** The sync thread as the service sees it. */
export interface SyncWorker {
  /** Each configured source's status, for `/healthz`. */
  status(): readonly SourceStatus[];
  /** Stops the runs (those under way are aborted and write nothing) and the thread. */
  stop(): Promise<void>;
}

/** How long `stop` waits for the runs under way to end before it ends the thread. */
const STOP_WAIT_MS = 10_000;

/**
 * Starts the sync thread (`thread.ts`), which runs every configured source every
 * `settings.intervalMs` on a store of its own. A thread that cannot open its store logs one
 * line and leaves the service serving what it has.
 */
export function startSyncWorker(data: SyncWorkerData, logger: Logger): SyncWorker {
  const worker = new Worker(workerUrl(import.meta.url, './thread.js'), { workerData: data });
  let status: readonly SourceStatus[] = [];
  worker.on('message', (message: SyncMessage) => {
    if (message.event === 'status') status = message.status;
    else if (message.event === 'failed')
      logger.error({ reason: message.reason }, 'the sync thread could not start');
  });
  worker.on('error', (err) => logger.error({ reason: err.message }, 'the sync thread failed'));
  const exited = once(worker, 'exit');
  return {
    status: () => status,
    async stop() {
      const stopped = new Promise<void>((resolve) => {
        worker.on('message', (m: SyncMessage) => m.event === 'stopped' && resolve());
        setTimeout(resolve, STOP_WAIT_MS).unref();
      });
      worker.postMessage('stop');
      await Promise.race([stopped, exited]);
      await worker.terminate();
    },
  };
}
