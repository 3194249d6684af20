/**
 * Two service processes started at the same moment on one store, as a scale-out or a rolling
 * upgrade starts them: both do the start-up writes (the sample dealership into an empty store,
 * the stored records an older derivation produced derived again), one of them first, and both
 * become ready and serve the same bytes. On PostgreSQL (a database of the run's throwaway
 * cluster) and on SQLite (two processes on one file).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { DERIVATION_VERSION } from '../../src/import/derive.js';
import { loadSampleFile, samplePath } from '../../src/import/sample.js';
import { openStore } from '../../src/store/index.js';
import { freePort } from '../helpers/ports.js';
import { TEST_BASE_URL } from '../helpers/service.js';
import { systemDatabaseUrl } from './database.js';

const MAIN = join(import.meta.dirname, '../../dist/src/main.js');

/** Two instances loading and analysing the sample at once take a while on a busy machine. */
const READY_WITHIN_MS = 150_000;

interface Instance {
  url: string;
  child: ChildProcess;
  /** Every log line it printed, parsed when JSON. */
  logs: string[];
  exited: Promise<number | null>;
}

/** Starts the built service as a process on `databaseUrl`, with the sample data on. */
async function spawnInstance(databaseUrl: string): Promise<Instance> {
  const port = await freePort();
  const child = spawn(process.execPath, [MAIN], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      BASE_URL: TEST_BASE_URL,
      DATABASE_URL: databaseUrl,
      SAMPLE_DATA: 'on',
      LOG_LEVEL: 'info',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs: string[] = [];
  const collect = (chunk: Buffer) =>
    logs.push(...chunk.toString('utf8').split('\n').filter(Boolean));
  child.stdout!.on('data', collect);
  child.stderr!.on('data', collect);
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  return { url: `http://127.0.0.1:${port}`, child, logs, exited };
}

/** Resolves once the instance answers `/healthz`; rejects with its logs if it exits first. */
async function ready(instance: Instance): Promise<void> {
  const started = Date.now();
  let exitCode: number | null | undefined;
  void instance.exited.then((code) => (exitCode = code));
  for (;;) {
    if (exitCode !== undefined) {
      throw new Error(`an instance exited (${exitCode}):\n${instance.logs.join('\n')}`);
    }
    try {
      if ((await fetch(`${instance.url}/healthz`)).ok) return;
    } catch {
      // not listening yet
    }
    if (Date.now() - started > READY_WITHIN_MS) throw new Error('an instance never became ready');
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** What an instance serves: the dataset's ETag and body, and its data version. */
async function served(instance: Instance) {
  const res = await fetch(`${instance.url}/reviews.json`, {
    headers: { 'accept-encoding': 'identity' },
  });
  const health = (await (await fetch(`${instance.url}/healthz`)).json()) as {
    dataVersion: number;
    reviews: number;
  };
  return { etag: res.headers.get('etag'), body: await res.text(), ...health };
}

/** Log lines of both instances with this message. */
const lines = (instances: Instance[], msg: string) =>
  instances.flatMap((i) => i.logs.filter((l) => l.includes(`"msg":"${msg}"`)));

/**
 * A new, empty store of each engine for each test, and a way to hold the start-up writes of the
 * instances until both are about to write, so that their transactions overlap for certain (as
 * they may by chance): `holdWrites` takes the engine's write lock before the instances start (on
 * PostgreSQL, the tables that they write; on SQLite, the file's), `release` lets it go once both
 * wait for it (on PostgreSQL, seen in `pg_locks`; on SQLite, after a while).
 */
interface TestStore {
  url: string;
  holdWrites(): Promise<{ release(): Promise<void> }>;
  cleanup(): Promise<void>;
}

const ENGINES: Record<'postgres' | 'sqlite', () => Promise<TestStore>> = {
  postgres: async () => {
    const { url, cleanup } = await systemDatabaseUrl('');
    return {
      url,
      cleanup,
      async holdWrites() {
        const client = new pg.Client({ connectionString: url });
        await client.connect();
        await client.query('BEGIN');
        await client.query('LOCK TABLE reviews, business IN SHARE MODE');
        return {
          async release() {
            for (;;) {
              const { rows } = await client.query<{ n: number }>(
                `SELECT count(DISTINCT pid)::int AS n FROM pg_locks
                 WHERE NOT granted AND relation IN ('reviews'::regclass, 'business'::regclass)`,
              );
              if (rows[0]!.n >= 2) break;
              await new Promise((r) => setTimeout(r, 50));
            }
            await client.query('ROLLBACK');
            await client.end();
          },
        };
      },
    };
  },
  sqlite: async () => {
    const dir = mkdtempSync(join(tmpdir(), 'start-together-'));
    const path = join(dir, 'reviews.db');
    return {
      url: `sqlite:${path}`,
      cleanup: async () => rmSync(dir, { recursive: true, force: true }),
      async holdWrites() {
        const db = new Database(path);
        db.exec('BEGIN IMMEDIATE');
        return {
          async release() {
            // Nothing tells when the instances wait for the lock: long enough for both to
            // start and prepare their writes, even on a busy machine.
            await new Promise((r) => setTimeout(r, 8_000));
            db.exec('ROLLBACK');
            db.close();
          },
        };
      },
    };
  },
};

/** A store an older derivation wrote: the sample, every record older and different. */
async function seedOlderDerivation(url: string): Promise<{ version: number }> {
  const store = openStore(url);
  try {
    await loadSampleFile(store, samplePath());
    await store.transaction(async (tx) => {
      await tx.forEachReview(500, async (page) => {
        await tx.upsertReviews(
          page.map((r) => ({
            ...r,
            derivedVersion: 0,
            publicJson: `{"olderDerivation":true,${r.publicJson.slice(1)}`,
          })),
        );
      });
      await tx.bumpVersion(new Date().toISOString());
    });
    expect(await store.countDerivedBefore(DERIVATION_VERSION)).toBe(1800);
    return await store.state();
  } finally {
    await store.close();
  }
}

/** Migrates a new store, as an earlier start or `migrate-store` leaves it: schema, no data. */
async function migrateEmpty(url: string): Promise<void> {
  const store = openStore(url);
  await store.state();
  await store.close();
}

describe.each(Object.keys(ENGINES) as (keyof typeof ENGINES)[])(
  'two instances started together on %s',
  (engine) => {
    let running: Instance[] = [];
    let store: TestStore | undefined;

    afterEach(async () => {
      for (const i of running) {
        i.child.kill('SIGTERM');
        await i.exited;
      }
      running = [];
      await store?.cleanup();
      store = undefined;
    });

    /**
     * Starts two instances at once on the test's store (holding their first writes until both
     * are about to write, when asked); resolves with what each serves once both are ready.
     */
    const startTwo = async (options: { hold?: boolean } = {}) => {
      const held = options.hold ? await store!.holdWrites() : null;
      running = await Promise.all([spawnInstance(store!.url), spawnInstance(store!.url)]);
      const readiness = Promise.all(running.map(ready));
      if (held) await Promise.race([held.release(), readiness]);
      await readiness;
      const [a, b] = await Promise.all(running.map(served));
      // Both serve the same version, byte for byte.
      expect(b!.etag).toBe(a!.etag);
      expect(b!.dataVersion).toBe(a!.dataVersion);
      expect(b!.body).toBe(a!.body);
      const logs = running.flatMap((i) => i.logs).join('\n');
      expect(logs).not.toMatch(/unexpected error|"level":50/);
      return a!;
    };

    it('on a new, empty database: load the sample once, and both serve it', async () => {
      store = await ENGINES[engine]();
      const served = await startTwo();
      expect(served.reviews).toBe(1800);
      // One instance loaded it; the other found it there (or lost the race and looked again).
      expect(lines(running, 'loaded the sample dealership into an empty store')).toHaveLength(1);
    }, 240_000);

    it('on an empty store, both writing the sample at once: one loads it, and both serve it', async () => {
      store = await ENGINES[engine]();
      await migrateEmpty(store.url);
      const served = await startTwo({ hold: true });
      expect(served.reviews).toBe(1800);
      expect(served.dataVersion).toBe(1);
      expect(lines(running, 'loaded the sample dealership into an empty store')).toHaveLength(1);
    }, 240_000);

    it('on a store of an older derivation, both deriving at once: one derives it, and both serve the new records', async () => {
      store = await ENGINES[engine]();
      const before = await seedOlderDerivation(store.url);
      const served = await startTwo({ hold: true });
      expect(served.body).not.toContain('olderDerivation');
      // Derived once, as one new data version, which both publish.
      expect(served.dataVersion).toBe(before.version + 1);
      const check = openStore(store.url);
      expect(await check.countDerivedBefore(DERIVATION_VERSION)).toBe(0);
      await check.close();
      expect(lines(running, 'derived stored reviews again (newer code)')).toHaveLength(1);
      expect(lines(running, 'loaded the sample dealership into an empty store')).toHaveLength(0);
    }, 240_000);
  },
);
