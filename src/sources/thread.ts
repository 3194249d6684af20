/**
 * The sync thread: runs the configured review sources for the service, off its event loop (a
 * run fetches, parses and imports, and a SQLite import runs a synchronous driver), on a store
 * of its own. It tells the service each source's status as it changes, and stops when told.
 */
import { hostname } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { createLogger } from '../logger.js';
import { openStore } from '../store/index.js';
import { configuredSources } from './configured.js';
import { holderName } from './run.js';
import { startSourceScheduler } from './scheduler.js';
import type { SyncMessage, SyncWorkerData } from './worker.js';

const data = workerData as SyncWorkerData;
const port = parentPort!;
const send = (message: SyncMessage): void => port.postMessage(message);

try {
  const store = openStore(data.databaseUrl);
  const scheduler = startSourceScheduler({
    sources: configuredSources(data.settings),
    store,
    logger: createLogger(data.logLevel),
    holder: holderName(hostname(), process.pid),
    intervalMs: data.settings.intervalMs,
    firstDelayMs: data.firstDelayMs,
  });
  scheduler.onStatus((status) => send({ event: 'status', status }));
  port.on('message', (message: 'stop') => {
    if (message !== 'stop') return;
    void scheduler
      .stop()
      .then(() => store.close())
      .finally(() => send({ event: 'stopped' }));
  });
  send({ event: 'status', status: scheduler.status() });
} catch (err) {
  send({ event: 'failed', reason: err instanceof Error ? err.message : String(err) });
}
