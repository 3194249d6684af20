/**
 * The store engines the benchmarks run on: `BENCH_ENGINES` (comma-separated, default `sqlite`),
 * `sqlite` and/or `postgres`. For `postgres`, each benchmark gets a database of its own on the
 * server named by `BENCH_DATABASE_URL` (a URL of a user that may create databases), or, without
 * it, on a throwaway cluster started once for the run (`tools/postgres-cluster.ts`, PostgreSQL's
 * default durability settings) and stopped by `stopEngines`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { startPostgresCluster, type PostgresCluster } from '../postgres-cluster.js';

export type Engine = 'sqlite' | 'postgres';

export function benchEngines(): Engine[] {
  const engines = (process.env.BENCH_ENGINES ?? 'sqlite').split(',').map((e) => e.trim());
  for (const e of engines) {
    if (e !== 'sqlite' && e !== 'postgres') {
      throw new Error(`BENCH_ENGINES: unknown engine ${e} (sqlite, postgres)`);
    }
  }
  return engines as Engine[];
}

export interface BenchDatabase {
  engine: Engine;
  /** The service's `DATABASE_URL`. */
  databaseUrl: string;
  /** A folder for the benchmark's files (data, certificates), removed by `drop`. */
  dir: string;
  /** Deletes the store (the folder; the PostgreSQL database). */
  drop(): Promise<void>;
}

let cluster: Promise<PostgresCluster> | null = null;
let databases = 0;

function adminUrl(): Promise<string> {
  if (process.env.BENCH_DATABASE_URL) return Promise.resolve(process.env.BENCH_DATABASE_URL);
  cluster ??= startPostgresCluster({ purpose: 'BENCH_ENGINES=postgres', durable: true });
  return cluster.then((c) => c.adminUrl);
}

async function admin<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: await adminUrl() });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** A new, empty store of `engine` for one benchmark. */
export async function benchDatabase(engine: Engine, name: string): Promise<BenchDatabase> {
  const dir = mkdtempSync(join(tmpdir(), `bench-${name}-`));
  if (engine === 'sqlite') {
    return {
      engine,
      databaseUrl: `sqlite:${join(dir, 'reviews.db')}`,
      dir,
      drop: async () => rmSync(dir, { recursive: true, force: true }),
    };
  }
  const database = `bench_${name.replace(/\W/g, '_')}_${process.pid}_${++databases}`;
  await admin((c) => c.query(`CREATE DATABASE ${database}`));
  const url = new URL(await adminUrl());
  url.pathname = `/${database}`;
  return {
    engine,
    databaseUrl: url.toString(),
    dir,
    async drop() {
      await admin((c) => c.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Stops the run's throwaway cluster, if one was started. */
export async function stopEngines(): Promise<void> {
  if (cluster) (await cluster).stop();
  cluster = null;
}
