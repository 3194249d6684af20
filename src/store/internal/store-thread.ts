/**
 * The store's own thread: it owns the SQLite connections of the service (the driver is
 * synchronous, and waiting for an import's write lock here blocks no request) and answers the
 * service's calls over the worker's port.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { serveRpc, type Handlers } from '../../platform/rpc.js';
import { openSqliteStore } from '../core/sqlite.js';
import { dict } from '../../platform/dict.js';

const { path } = workerData as { path: string };

/**
 * A store that cannot be opened answers every call, `ready` first, with the reason (its message
 * and SQLite's code): an error thrown here at the top level would reach the service only as the
 * worker's error event, without its message.
 */
function unopened(err: unknown): Handlers {
  const fail = (): never => {
    throw err;
  };
  return dict({ ready: fail, state: fail, close: () => null });
}

function opened(store: ReturnType<typeof openSqliteStore>): Handlers {
  const handlers: Handlers = dict({
    ready: () => ({ engine: store.engine, location: store.location }),
    state: () => store.state(),
    close: () => store.close(),
  });
  for (const [group, methods] of [
    ['sessions', store.sessions],
    ['websub', store.websub],
    ['rates', store.rates],
  ] as const) {
    for (const [name, fn] of Object.entries(methods)) {
      if (typeof fn === 'function') handlers[`${group}.${name}`] = fn.bind(methods);
    }
  }
  return handlers;
}

let handlers: Handlers;
try {
  handlers = opened(openSqliteStore(path, { asyncLockWait: true }));
} catch (err) {
  handlers = unopened(err);
}
serveRpc(parentPort!, handlers);
