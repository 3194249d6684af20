import { Worker } from 'node:worker_threads';
import { rpcClient, workerUrl } from '../../platform/rpc.js';
import type { RateStore } from '../rates/types.js';
import type { SessionStore } from '../sessions/types.js';
import type { ServiceStore } from './types.js';
import type { WebSubStore } from '../hub/types.js';

/** Every method of `T`, forwarded to the store thread as `<group>.<method>`. */
function forward<T extends object>(
  call: (op: string, args: unknown[]) => Promise<unknown>,
  group: string,
): T {
  return new Proxy({} as T, {
    get: (_target, name) =>
      typeof name === 'string' ? (...args: unknown[]) => call(`${group}.${name}`, args) : undefined,
  });
}

/**
 * Opens the SQLite store at `path` on its own thread and returns the service's view of it: every
 * call is a message to that thread, so the synchronous driver, and any wait for another process's
 * write lock, never runs on the event loop that serves requests. Resolves once the store is open
 * (and migrated), or rejects with the reason it could not be.
 */
export async function openThreadedSqliteStore(path: string): Promise<ServiceStore> {
  const worker = new Worker(workerUrl(import.meta.url, '../internal/store-thread.js'), {
    workerData: { path },
  });
  const client = rpcClient(worker);
  let closing = false;
  const stopped = (reason: Error): void => {
    client.failAll(reason);
  };
  worker.on('error', (err) => stopped(err));
  worker.on('exit', (code) => {
    if (!closing) stopped(new Error(`the store thread stopped (exit code ${code})`));
  });
  const call = (op: string, args: unknown[] = []) => client.call<unknown>(op, args);
  try {
    await call('ready');
  } catch (err) {
    closing = true;
    await worker.terminate();
    throw err;
  }
  return {
    engine: 'sqlite',
    location: path,
    sessions: forward<SessionStore>(call, 'sessions'),
    websub: forward<WebSubStore>(call, 'websub'),
    rates: forward<RateStore>(call, 'rates'),
    state: () => client.call('state'),
    async close() {
      if (closing) return;
      await call('close');
      closing = true;
      await worker.terminate();
    },
  };
}
