import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { WatchEvent } from '../core/types.js';
import { CHANGE_CHANNEL } from './postgres-transaction.js';

/** Delays between attempts to listen again: doubling from the first, up to the last. */
const FIRST_RETRY_MS = 100;
const MAX_RETRY_MS = 10_000;

/**
 * How often the listening connection proves that it still delivers notifications, and how long
 * the proof may take: a connection that does not deliver its own ping in time (a backend that
 * hangs, a network that silently drops packets, a pooler that does not keep LISTEN) is given up
 * and replaced. A silently dead connection is found within their sum.
 */
export const HEARTBEAT_MS = 2_000;
export const HEARTBEAT_TIMEOUT_MS = 3_000;

export interface ChangeWatcher {
  /** See `ServiceStore.watch`. */
  watch(listener: (event: WatchEvent) => void): () => void;
  /** Stops listening for good. */
  stop(): Promise<void>;
}

export interface WatcherTiming {
  heartbeatMs?: number;
  heartbeatTimeoutMs?: number;
}

/**
 * Closes a client: politely (`end()`), and at once after `graceMs` (or at once, with 0), since
 * `end()` waits for an answer that a hung backend or a dead network never sends.
 */
function close(c: pg.Client, graceMs: number): Promise<void> {
  const destroy = (): void =>
    (
      c as unknown as { connection?: { stream?: { destroy?: () => void } } }
    ).connection?.stream?.destroy?.();
  if (graceMs === 0) destroy();
  const timer = graceMs === 0 ? undefined : setTimeout(destroy, graceMs).unref();
  return c
    .end()
    .catch(() => undefined)
    .finally(() => clearTimeout(timer));
}

/**
 * `watch` for a PostgreSQL store: one connection of its own (outside the pool, held while anyone
 * watches) runs `LISTEN dealer_reviews_changed` (see `CHANGE_CHANNEL`) and tells every listener
 * `change` on each notification. Every `HEARTBEAT_MS` it notifies a channel of its own and waits
 * for that notification to come back (the proof that notifications reach it, through whatever
 * lies between); one that does not come within `HEARTBEAT_TIMEOUT_MS`, like a lost connection (a
 * server restart, a network cut, an administrator ending it), makes it tell `lost` and connect and
 * listen again by itself, after 0.1 s, then twice as long after each failure, up to 10 s. Each
 * listener is told `listening` once its changes are listened for (the first ping came back), and
 * again after each reconnection: a change may have been committed while nobody listened.
 */
export function createChangeWatcher(
  config: pg.ClientConfig,
  ready: () => Promise<void>,
  timing: WatcherTiming = {},
): ChangeWatcher {
  const heartbeatMs = timing.heartbeatMs ?? HEARTBEAT_MS;
  const timeoutMs = timing.heartbeatTimeoutMs ?? HEARTBEAT_TIMEOUT_MS;
  const listeners = new Set<(event: WatchEvent) => void>();
  let client: pg.Client | null = null;
  let listening = false;
  let retry: NodeJS.Timeout | undefined;
  let heartbeat: NodeJS.Timeout | undefined;
  let failures = 0;
  let stopped = false;

  const tell = (fns: readonly ((event: WatchEvent) => void)[], event: WatchEvent): void => {
    for (const fn of fns) {
      try {
        fn(event);
      } catch {
        // A listener's failure is its own; the others are still told.
      }
    }
  };

  /** Drops `c` (at once when it is known to be broken); tells the listeners if it was listening. */
  const disconnect = (c: pg.Client, broken = false): void => {
    if (client === c) {
      client = null;
      clearTimeout(heartbeat);
      heartbeat = undefined;
      if (listening) {
        listening = false;
        tell([...listeners], 'lost');
      }
    }
    void close(c, broken ? 0 : timeoutMs);
  };

  const lost = (c: pg.Client): void => {
    if (client !== c) return;
    disconnect(c, true);
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
    // A channel only this connection listens on: its pings wake no other instance.
    const pingChannel = `dealer_reviews_ping_${randomBytes(8).toString('hex')}`;
    let pings = 0;
    let awaited: { payload: string; arrived(): void } | null = null;
    c.on('notification', (n) => {
      if (n.channel === CHANGE_CHANNEL) tell([...listeners], 'change');
      else if (n.channel === pingChannel && awaited && n.payload === awaited.payload) {
        awaited.arrived();
      }
    });
    // Kept for the client's whole life: a late error of a dropped client is no crash.
    c.on('error', () => lost(c));
    c.on('end', () => lost(c));

    /** Notifies the ping channel and waits for the notification to come back. */
    const ping = (): Promise<void> => {
      const payload = String(++pings);
      return new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => {
          awaited = null;
          reject(new Error(`no ping back within ${timeoutMs} ms`));
        }, timeoutMs);
        timer.unref();
        awaited = {
          payload,
          arrived() {
            awaited = null;
            clearTimeout(timer);
            resolve();
          },
        };
        c.query('SELECT pg_notify($1, $2)', [pingChannel, payload]).catch((err: unknown) => {
          awaited = null;
          clearTimeout(timer);
          reject(err as Error);
        });
      });
    };

    const beat = (): void => {
      heartbeat = setTimeout(() => {
        if (client !== c) return;
        ping().then(beat, () => lost(c));
      }, heartbeatMs);
      heartbeat.unref();
    };

    (async () => {
      await ready();
      await c.connect();
      // A ping's commit need not wait for the disk: it writes nothing.
      await c.query('SET synchronous_commit = off');
      await c.query(`LISTEN ${CHANGE_CHANNEL}`);
      await c.query(`LISTEN ${pingChannel}`);
      await ping();
    })().then(
      () => {
        if (client !== c) return;
        listening = true;
        failures = 0;
        tell([...listeners], 'listening');
        beat();
      },
      () => lost(c),
    );
  }

  return {
    watch(listener) {
      // A wrapper per call: the same function may watch twice.
      const entry = (event: WatchEvent): void => listener(event);
      listeners.add(entry);
      if (listening) {
        queueMicrotask(() => {
          if (listeners.has(entry)) tell([entry], 'listening');
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
      clearTimeout(heartbeat);
      const c = client;
      client = null;
      listening = false;
      if (c) await close(c, timeoutMs);
    },
  };
}
