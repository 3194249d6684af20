import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import type { WatchEvent } from '../core/types.js';
import { postgresDriver } from './postgres-connection.js';
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

type Listener = (event: WatchEvent) => void;

/** Tells each of `fns` `event`; a listener's failure is its own, the others are still told. */
function tell(fns: Iterable<Listener>, event: WatchEvent): void {
  for (const fn of [...fns]) {
    try {
      fn(event);
    } catch {
      // A listener's failure is its own; the others are still told.
    }
  }
}

/** One listening connection, and the ping that proves that notifications reach it. */
interface Link {
  readonly client: pg.Client;
  /** Notifies the link's own channel and waits, at most the timeout, for it to come back. */
  ping(): Promise<void>;
  /** Connects and listens for changes and pings; settles once the first ping came back. */
  open(ready: () => Promise<void>): Promise<void>;
}

/**
 * A connection that listens for changes (`onChange`) and on a ping channel of its own;
 * `onLost` when it errs or ends.
 */
function createLink(
  config: pg.ClientConfig,
  timeoutMs: number,
  onChange: () => void,
  onLost: (c: pg.Client) => void,
): Link {
  const c = new (postgresDriver().Client)(config);
  // A channel only this connection listens on: its pings wake no other instance.
  const pingChannel = `dealer_reviews_ping_${randomBytes(8).toString('hex')}`;
  let pings = 0;
  let awaited: { payload: string; arrived(): void } | null = null;
  c.on('notification', (n) => {
    if (n.channel === CHANGE_CHANNEL) onChange();
    else if (n.channel === pingChannel && awaited && n.payload === awaited.payload) {
      awaited.arrived();
    }
  });
  // Kept for the client's whole life: a late error of a dropped client is no crash.
  c.on('error', () => onLost(c));
  c.on('end', () => onLost(c));

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

  return {
    client: c,
    ping,
    async open(ready) {
      await ready();
      await c.connect();
      // A ping's commit need not wait for the disk: it writes nothing.
      await c.query('SET synchronous_commit = off');
      await c.query(`LISTEN ${CHANGE_CHANNEL}`);
      await c.query(`LISTEN ${pingChannel}`);
      await ping();
    },
  };
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
class PostgresChangeWatcher implements ChangeWatcher {
  private readonly listeners = new Set<Listener>();
  /** The current connection, while one is opening or listening. */
  private client: pg.Client | null = null;
  /** The current connection proved that notifications reach it. */
  private listening = false;
  private retry: NodeJS.Timeout | undefined;
  private heartbeat: NodeJS.Timeout | undefined;
  /** Failed attempts since the last connection that listened. */
  private failures = 0;
  private stopped = false;

  constructor(
    private readonly config: pg.ClientConfig,
    private readonly ready: () => Promise<void>,
    private readonly heartbeatMs: number,
    private readonly timeoutMs: number,
  ) {}

  watch(listener: Listener): () => void {
    // A wrapper per call: the same function may watch twice.
    const entry = (event: WatchEvent): void => listener(event);
    this.listeners.add(entry);
    if (this.listening) {
      queueMicrotask(() => {
        if (this.listeners.has(entry)) tell([entry], 'listening');
      });
    } else {
      this.listen();
    }
    return () => {
      if (!this.listeners.delete(entry) || this.listeners.size > 0) return;
      clearTimeout(this.retry);
      this.retry = undefined;
      if (this.client) this.disconnect(this.client);
    };
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.listeners.clear();
    clearTimeout(this.retry);
    clearTimeout(this.heartbeat);
    const c = this.client;
    this.client = null;
    this.listening = false;
    if (c) await close(c, this.timeoutMs);
  }

  /** Opens a connection that listens, unless one is open, due, or nobody watches. */
  private listen(): void {
    if (this.stopped || this.listeners.size === 0 || this.client || this.retry) return;
    const link = createLink(
      this.config,
      this.timeoutMs,
      () => tell(this.listeners, 'change'),
      (c) => this.lost(c),
    );
    const c = link.client;
    this.client = c;
    link.open(this.ready).then(
      () => {
        if (this.client !== c) return;
        this.listening = true;
        this.failures = 0;
        tell(this.listeners, 'listening');
        this.beat(link);
      },
      () => this.lost(c),
    );
  }

  /** Pings every `heartbeatMs`; a ping that does not come back loses the connection. */
  private beat(link: Link): void {
    this.heartbeat = setTimeout(() => {
      if (this.client !== link.client) return;
      link.ping().then(
        () => this.beat(link),
        () => this.lost(link.client),
      );
    }, this.heartbeatMs);
    this.heartbeat.unref();
  }

  /** Drops `c` (at once when it is known to be broken); tells the listeners if it was listening. */
  private disconnect(c: pg.Client, broken = false): void {
    if (this.client === c) {
      this.client = null;
      clearTimeout(this.heartbeat);
      this.heartbeat = undefined;
      if (this.listening) {
        this.listening = false;
        tell(this.listeners, 'lost');
      }
    }
    void close(c, broken ? 0 : this.timeoutMs);
  }

  /** The current connection `c` failed: drop it, and listen again after the next delay. */
  private lost(c: pg.Client): void {
    if (this.client !== c) return;
    this.disconnect(c, true);
    if (this.stopped || this.listeners.size === 0) return;
    const delay = Math.min(MAX_RETRY_MS, FIRST_RETRY_MS * 2 ** this.failures++);
    this.retry = setTimeout(() => {
      this.retry = undefined;
      this.listen();
    }, delay);
    this.retry.unref();
  }
}

/** The watcher of the PostgreSQL store whose migration `ready` waits for (see the class). */
export function createChangeWatcher(
  config: pg.ClientConfig,
  ready: () => Promise<void>,
  timing: WatcherTiming = {},
): ChangeWatcher {
  return new PostgresChangeWatcher(
    config,
    ready,
    timing.heartbeatMs ?? HEARTBEAT_MS,
    timing.heartbeatTimeoutMs ?? HEARTBEAT_TIMEOUT_MS,
  );
}
