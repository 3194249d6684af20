/**
 * The PostgreSQL store against a real server: the run's throwaway cluster (the `postgres`
 * project's global setup, `npm run test:postgres`). Every fixture creates a database of its own
 * and drops it at cleanup, which fails if the store left a connection open.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import { storedRow } from '../helpers/records.js';
import {
  CONCURRENT_CHANGE,
  openServiceStore,
  openStore,
  openStoreWithin,
  STORE_OPEN_FAILED,
  type ServiceStore,
  type Store,
  type WatchEvent,
} from '../../src/store/index.js';
import { openPostgresStore } from '../../src/store/core/postgres.js';
import { MIGRATIONS } from '../../src/store/internal/migrations.js';
import { isServiceError } from '../../src/platform/errors.js';
import { overlappingWrites } from './overlapping-writes.js';
import { describeStoreContract } from './store-contract.js';
import { describeTransferContract, type OpenedStore } from './transfer-contract.js';

const isConcurrentChange = (err: unknown): boolean => isServiceError(err, CONCURRENT_CHANGE);
const isStoreOpenFailure = (err: unknown): boolean => isServiceError(err, STORE_OPEN_FAILED);

const adminUrl = inject('pgAdminUrl');
let admin: pg.Client;
let databases = 0;

beforeAll(async () => {
  admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
});
afterAll(async () => {
  await admin.end();
});

/** The URL of a new, empty database on the test server. */
async function createDatabase(): Promise<{ name: string; url: string }> {
  const name = `store_${process.pid}_${++databases}`;
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return { name, url: url.toString() };
}

async function dropDatabase(name: string): Promise<void> {
  await admin.query(`DROP DATABASE ${name}`);
}

/** One query on a connection of its own to the database at `url`. */
async function query(url: string, sql: string): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await client.query(sql);
  } finally {
    await client.end();
  }
}

/** One database, the stores opened on it, and their cleanup. */
function database() {
  let name = '';
  let url = '';
  const opened: ServiceStore[] = [];
  return {
    get url() {
      return url;
    },
    async create() {
      ({ name, url } = await createDatabase());
    },
    open(): Store {
      const store = openStore(url);
      opened.push(store);
      return store;
    },
    track<S extends ServiceStore>(store: S): S {
      opened.push(store);
      return store;
    },
    async cleanup() {
      for (const store of opened.splice(0)) await store.close();
      await dropDatabase(name);
    },
  };
}

describeStoreContract(
  'PostgreSQL',
  async () => {
    const db = database();
    await db.create();
    return {
      store: db.open(),
      openAnother: async () => db.open(),
      cleanup: () => db.cleanup(),
    };
  },
  { watches: true },
);

/** A new PostgreSQL store on a database of its own. */
async function openTemporaryPostgres(): Promise<OpenedStore> {
  const db = database();
  await db.create();
  return { store: db.open(), cleanup: () => db.cleanup() };
}

/** A new SQLite store in a folder of its own. */
async function openTemporarySqlite(): Promise<OpenedStore> {
  const dir = mkdtempSync(join(tmpdir(), 'store-transfer-'));
  const store = openStore(`sqlite:${join(dir, 'reviews.db')}`);
  return {
    store,
    async cleanup() {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

describeTransferContract('SQLite to PostgreSQL', openTemporarySqlite, openTemporaryPostgres);
describeTransferContract('PostgreSQL to SQLite', openTemporaryPostgres, openTemporarySqlite);
describeTransferContract('PostgreSQL to PostgreSQL', openTemporaryPostgres, openTemporaryPostgres);

describe('the PostgreSQL store', () => {
  const db = database();
  beforeEach(() => db.create());
  afterEach(() => db.cleanup());

  it("is the service's store as it is (the pool, no thread), with watch", async () => {
    const store = db.track(await openServiceStore(db.url));
    expect(store.engine).toBe('postgres');
    expect(typeof store.watch).toBe('function');
    expect(await store.state()).toEqual({ version: 0, changedAt: '1970-01-01T00:00:00.000Z' });
  });

  it('migrates once when several instances start together', async () => {
    const stores = Array.from({ length: 4 }, () => db.open());
    const states = await Promise.all(stores.map((s) => s.state()));
    expect(new Set(states.map((s) => s.version))).toEqual(new Set([0]));
    const { rows: applied } = await query(
      db.url,
      'SELECT version, name FROM schema_migrations ORDER BY version',
    );
    expect(applied).toEqual(MIGRATIONS.map((m) => ({ version: m.version, name: m.name })));
  });

  it('keeps the password out of its location and of the errors of opening', async () => {
    const url = new URL(db.url);
    url.password = 'hunter2-secret';
    const store = db.track(openStore(url.toString()));
    expect(store.location).toBe(url.toString().replace('hunter2-secret', '***'));
    url.pathname = '/no_such_database';
    const failure = await openStoreWithin(url.toString()).catch((err: unknown) => err);
    expect(failure).toSatisfy(isStoreOpenFailure);
    const message = (failure as Error).message;
    expect(message).toContain('no_such_database');
    expect(message).toContain('(SQLSTATE 3D000)');
    expect(message).toContain(':***@');
    expect(message).not.toContain('hunter2');
  });

  it('fails a transaction whose write conflicts with a change committed meanwhile, writing nothing', async () => {
    const first = db.open();
    const second = db.open();
    const { slow, quick } = await overlappingWrites(first, second);
    await expect(slow).rejects.toSatisfy(isConcurrentChange);
    expect(await first.state()).toEqual(quick);
    expect(await first.countReviews()).toBe(1);
  });

  it('fails a transaction that wrote without a new version when the version moved meanwhile', async () => {
    const first = db.open();
    const second = db.open();
    await first.transaction(async (tx) => {
      await tx.upsertReviews([storedRow('a'), storedRow('b')]);
      await tx.bumpVersion('2030-01-01T00:00:00.000Z');
    });
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let wrote!: () => void;
    const written = new Promise<void>((resolve) => (wrote = resolve));
    const pruning = first.transaction(async (tx) => {
      const removed = await tx.pruneReviews(['google'], new Set());
      wrote();
      await held;
      return removed;
    });
    await written;
    await second.moderation.apply({
      reviewId: storedRow('b').id,
      action: 'hide',
      reason: null,
      actor: 'ops',
      at: '2030-01-02T00:00:00.000Z',
    });
    release();
    await expect(pruning).rejects.toSatisfy(isConcurrentChange);
    expect(await first.countReviews()).toBe(2);
  });

  /** The store's listener, with the events it was told, and a way to wait for the n-th. */
  function recorder() {
    const events: WatchEvent[] = [];
    const waiting = new Set<() => void>();
    return {
      events,
      listener(event: WatchEvent) {
        events.push(event);
        for (const check of [...waiting]) check();
      },
      told: (n: number) =>
        new Promise<void>((resolve) => {
          const check = () => {
            if (events.length < n) return;
            waiting.delete(check);
            resolve();
          };
          waiting.add(check);
          check();
        }),
    };
  }

  /** The backend process of the store's listening connection. */
  async function listeningBackend(): Promise<number> {
    const { rows } = await admin.query<{ pid: number }>(
      `SELECT pid FROM pg_stat_activity WHERE datname = $1 AND application_name = 'dealer-reviews (watch)'`,
      [new URL(db.url).pathname.slice(1)],
    );
    expect(rows).toHaveLength(1);
    return rows[0]!.pid;
  }

  const commitOne = (store: Store, key: string, at: string) =>
    store.transaction(async (tx) => {
      await tx.upsertReviews([storedRow(key)]);
      await tx.bumpVersion(at);
    });

  it('listens again by itself after losing its connection, and then tells the listeners once', async () => {
    const watching = db.open();
    const writer = db.open();
    const r = recorder();
    const unwatch = watching.watch!(r.listener);
    await r.told(1);
    const ended = await admin.query<{ ended: boolean }>(
      'SELECT pg_terminate_backend($1) AS ended',
      [await listeningBackend()],
    );
    expect(ended.rows).toEqual([{ ended: true }]);
    // Told when listening again: a change may have been committed while it was not.
    await r.told(3);
    await commitOne(writer, 'a', '2030-01-01T00:00:00.000Z');
    await r.told(4);
    expect(r.events).toEqual(['listening', 'lost', 'listening', 'change']);
    unwatch();
  });

  it('finds out by its heartbeat that its listening connection hangs, and listens on a new one', async () => {
    const store = db.track(
      openPostgresStore(db.url, { watch: { heartbeatMs: 200, heartbeatTimeoutMs: 500 } }),
    );
    const writer = db.open();
    const r = recorder();
    const unwatch = store.watch!(r.listener);
    await r.told(1);
    // The backend stops answering, its TCP connection intact: only a heartbeat can tell.
    const hung = await listeningBackend();
    process.kill(hung, 'SIGSTOP');
    try {
      await r.told(3);
      expect(r.events).toEqual(['listening', 'lost', 'listening']);
      await commitOne(writer, 'b', '2030-01-02T00:00:00.000Z');
      await r.told(4);
      expect(r.events.at(-1)).toBe('change');
    } finally {
      process.kill(hung, 'SIGCONT');
    }
    unwatch();
  });

  it('opened while its database is away, works (and listens) once it is back', async () => {
    // As a build worker started during a restart: the migration at its first use fails.
    const name = new URL(db.url).pathname.slice(1);
    await admin.query(`ALTER DATABASE ${name} ALLOW_CONNECTIONS false`);
    const store = db.open();
    const r = recorder();
    let unwatch: () => void = () => undefined;
    try {
      await expect(store.state()).rejects.toThrow(/not currently accepting connections/);
      unwatch = store.watch!(r.listener);
      await expect(store.countReviews()).rejects.toThrow(/not currently accepting connections/);
    } finally {
      await admin.query(`ALTER DATABASE ${name} ALLOW_CONNECTIONS true`);
    }
    // The failed migration is not kept: the next call migrates, and the watcher listens.
    expect(await store.state()).toEqual({ version: 0, changedAt: '1970-01-01T00:00:00.000Z' });
    await r.told(1);
    expect(r.events).toEqual(['listening']);
    await commitOne(db.open(), 'back', '2030-01-03T00:00:00.000Z');
    await r.told(2);
    expect(await store.countReviews()).toBe(1);
    unwatch();
  });

  it('fails only the transaction whose connection is lost, and goes on with new connections', async () => {
    const store = db.open();
    let inside!: () => void;
    const started = new Promise<void>((resolve) => (inside = resolve));
    let resume!: () => void;
    const terminated = new Promise<void>((resolve) => (resume = resolve));
    const tx = store.transaction(async (t) => {
      await t.upsertReviews([storedRow('lost')]);
      inside();
      await terminated;
      await t.bumpVersion('2030-01-01T00:00:00.000Z');
    });
    await started;
    const ended = await admin.query<{ ended: boolean }>(
      `SELECT pg_terminate_backend(pid) AS ended FROM pg_stat_activity
       WHERE datname = $1 AND state = 'idle in transaction'`,
      [new URL(db.url).pathname.slice(1)],
    );
    expect(ended.rows).toEqual([{ ended: true }]);
    resume();
    await expect(tx).rejects.toThrow();
    await expect(tx).rejects.not.toSatisfy(isConcurrentChange);
    expect(await store.countReviews()).toBe(0);
    const state = await store.transaction(async (t) => {
      await t.upsertReviews([storedRow('kept')]);
      return t.bumpVersion('2030-01-02T00:00:00.000Z');
    });
    expect(await store.state()).toEqual(state);
  });

  it('reads BIGINT and TIMESTAMPTZ columns as numbers and RFC 3339 strings', async () => {
    const store = db.open();
    const far = 4_102_444_800_000; // 2100-01-01, past 32 bits of seconds
    await store.sessions.end('far', far);
    expect(await store.sessions.purgeEnded(far)).toBe(0);
    expect(await store.sessions.purgeEnded(far + 1)).toBe(1);
    const state = await store.transaction((tx) => tx.bumpVersion('2099-12-31T23:59:59.999Z'));
    expect(state).toEqual({ version: 1, changedAt: '2099-12-31T23:59:59.999Z' });
  });
});
