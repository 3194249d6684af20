import pg from 'pg';
import { CHANGE_CHANNEL } from './postgres-transaction.js';

/** Delays between attempts to listen again: doubling from the first, up to the last. */
const FIRST_RETRY_MS = 100;
const MAX_RETRY_MS = 10_000;

export interface ChangeWatcher {
  /** See `ServiceStore.watch`. */
  watch(listener: () => void): () => void;
  /** Stops listening for good. */
  stop(): Promise<void>;
}

/**
 * `watch` for a PostgreSQL store: one connection of its own (outside the pool, held while anyone
 * watches) runs `LISTEN dealer_reviews_changed` (see `CHANGE_CHANNEL`) and calls every listener,
 * with no arguments, on each notification. When the connection is lost (a server restart, a
 * network cut, an administrator ending it), it connects and listens again by itself, after
 * 0.1 s, then twice as long after each failure, up to 10 s. Each listener is also called once as
 * soon as its changes are listened for, and again after each reconnection: a change may have been
 * committed while nobody listened, so the listener looks at the data version then.
 */
export function createChangeWatcher(config: pg.ClientConfig, ready: Promise<void>): ChangeWatcher {
  const listeners = new Set<() => void>();
  let client: pg.Client | null = null;
  let listening = false;
  let retry: NodeJS.Timeout | undefined;
  let failures = 0;
  let stopped = false;

  const call = (fns: readonly (() => void)[]): void => {
    for (const fn of fns) {
      try {
        fn();
      } catch {
        // A listener's failure is its own; the others are still told.
      }
    }
  };

  const disconnect = (c: pg.Client): void => {
    if (client === c) {
      client = null;
      listening = false;
    }
    void c.end().catch(() => undefined);
  };

  const lost = (c: pg.Client): void => {
    if (client !== c) return;
    disconnect(c);
    if (stopped || listeners.size === 0) return;
    const delay = Math.min(MAX_RETRY_MS, FIRST_RETRY_MS * 2 ** failures++);
    retry = setTimeout(() => {
      retry = undefined;
      listen();
    }, delay);
    retry.unref();
  };

  function listen(): void {
    if (stopped || listeners.size === 0 || client || retry) return;
    const c = new pg.Client(config);
    client = c;
    c.on('notification', (n) => {
      if (n.channel === CHANGE_CHANNEL) call([...listeners]);
    });
    // Kept for the client's whole life: a late error of a dropped client is no crash.
    c.on('error', () => lost(c));
    c.on('end', () => lost(c));
    (async () => {
      await ready;
      await c.connect();
      await c.query(`LISTEN ${CHANGE_CHANNEL}`);
    })().then(
      () => {
        if (client !== c) return;
        listening = true;
        failures = 0;
        call([...listeners]);
      },
      () => lost(c),
    );
  }

  return {
    watch(listener) {
      // A wrapper per call: the same function may watch twice, and is called without arguments.
      const entry = (): void => listener();
      listeners.add(entry);
      if (listening) {
        queueMicrotask(() => {
          if (listeners.has(entry)) call([entry]);
        });
      } else {
        listen();
      }
      return () => {
        if (!listeners.delete(entry) || listeners.size > 0) return;
        clearTimeout(retry);
        retry = undefined;
        if (client) disconnect(client);
      };
    },
    async stop() {
      stopped = true;
      listeners.clear();
      clearTimeout(retry);
      const c = client;
      client = null;
      listening = false;
      await c?.end().catch(() => undefined);
    },
  };
}
