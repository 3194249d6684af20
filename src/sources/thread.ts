/**
 * The sync thread: runs the configured review sources for the service, off its event loop (a
 * run fetches, parses and imports, and a SQLite import runs a synchronous driver), on a store
 * of its own. It tells the service each source's status as it changes and how each run ended,
 * and stops when told. A thread that cannot start tells why and ends (the service starts
 * another, later).
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
  const configured = configuredSources(data.settings);
  const scheduler = startSourceScheduler({
    sources: configured.sources,
    store,
    logger: createLogger(data.logLevel),
    holder: holderName(hostname(), process.pid),
    intervalMs: data.settings.intervalMs,
    firstDelayMs: data.firstDelayMs,
  });
  scheduler.onStatus((status) => send({ event: 'status', status }));
  scheduler.onRun((name, outcome) => send({ event: 'run', name, outcome }));
  port.on('message', (message: 'stop') => {
    if (message !== 'stop') return;
    void scheduler
      .stop()
      .then(() => configured.close())
      .then(() => store.close())
      .finally(() => send({ event: 'stopped' }));
  });
  send({ event: 'status', status: scheduler.status() });
} catch (err) {
  send({ event: 'failed', reason: err instanceof Error ? err.message : String(err) });
  port.close();
}
