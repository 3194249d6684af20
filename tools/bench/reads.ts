/**
 * `npm run bench -- reads`: the request rates of an instance on each engine over the same data,
 * measured in turns (see `benchReads`).
 */
import type { ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { loadSampleFile } from '../../src/import/sample.js';
import { openStore } from '../../src/store/index.js';
import { benchDatabase, type BenchDatabase } from './engines.js';
import { load, startService, type LoadOptions } from './harness.js';
import { generateDataset } from './http.js';

/** Rates below 100 keep one decimal (MB/s). */
const round = (x: number): number => (x < 100 ? Math.round(x * 10) / 10 : Math.round(x));

/** The median of some numbers. */
const median = (xs: readonly number[]): number => {
  const sorted = [...xs].sort((x, y) => x - y);
  const mid = sorted.length / 2;
  return sorted.length % 2 ? sorted[Math.floor(mid)]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

/** A target loaded on each engine's instance: its path, the instances' URLs by engine, its load. */
interface Target {
  name: string;
  path: string;
  urls: string[];
  options: LoadOptions;
}

/** A load's rate (req/s, or MB/s for the large dataset) and p99 (ms). */
interface Rate {
  rps: number;
  p99: number;
}

/**
 * Loads the generated `file` into each store and starts two instances on each, the response cache
 * on and off (their processes added to `children`): the URLs of each kind, by engine.
 */
async function startInstances(
  dbs: readonly BenchDatabase[],
  file: string,
  children: ChildProcess[],
): Promise<{ cached: string[]; computed: string[] }> {
  const cached: string[] = [];
  const computed: string[] = [];
  for (const db of dbs) {
    const store = openStore(db.databaseUrl);
    await loadSampleFile(store, file);
    await store.close();
    for (const [list, cache] of [
      [cached, {}],
      [computed, { RESPONSE_CACHE_ENTRIES: '0' }],
    ] as const) {
      const svc = await startService({ DATABASE_URL: db.databaseUrl, ...cache });
      children.push(svc.child);
      list.push(svc.url);
    }
  }
  return { cached, computed };
}

/**
 * The targets: the dataset (MB/s with 2 connections for a large store), its 304 for `etag`, the
 * feed, and searches cached and computed.
 */
function readTargets(count: number, etag: string, cached: string[], computed: string[]): Target[] {
  const big = count > 10_000;
  return [
    {
      // A large store's dataset is a few big responses a second: its figure is MB/s.
      name: big ? '/reviews.json (2 connections, MB/s)' : '/reviews.json',
      path: '/reviews.json',
      urls: cached,
      options: {
        connections: big ? 2 : 32,
        headers: { 'Accept-Encoding': 'identity' },
        ...(big ? { duration: Math.max(15, Number(process.env.BENCH_DURATION ?? 10)) } : {}),
      },
    },
    {
      name: '/reviews.json 304',
      path: '/reviews.json',
      urls: cached,
      options: { headers: { 'If-None-Match': etag } },
    },
    { name: '/api/feed.json', path: '/api/feed.json', urls: cached, options: {} },
    {
      name: 'search rating=5, cached',
      path: '/api/reviews/search?rating=5&limit=20',
      urls: cached,
      options: {},
    },
    {
      name: 'search rating=5, computed, 1 connection',
      path: '/api/reviews/search?rating=5&limit=20',
      urls: computed,
      options: { connections: 1 },
    },
    {
      name: 'search query+min_rating, computed',
      path: '/api/reviews/search?query=brake&min_rating=3&limit=50',
      urls: computed,
      options: {},
    },
  ];
}

/**
 * Loads every target on both engines' instances, `rounds` times, alternating which engine goes
 * first (SQLite first, then PostgreSQL first, ...): each target's rates by engine, round by round.
 */
async function loadInTurns(targets: readonly Target[], rounds: number): Promise<Rate[][][]> {
  const results = targets.map(() => [[], []] as Rate[][]);
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? [0, 1] : [1, 0];
    for (const [t, target] of targets.entries()) {
      for (const e of order) {
        const r = await load(target.name, `${target.urls[e]}${target.path}`, target.options);
        if (r.non2xx > 0 && !target.name.endsWith('304'))
          throw new Error(`${target.name}: non-2xx`);
        const rate = target.name.endsWith('MB/s)') ? r.throughputMBs : r.rps;
        results[t]![e]!.push({ rps: rate, p99: r.p99 });
      }
    }
  }
  return results;
}

/**
 * A target's row from its rates by engine (SQLite, PostgreSQL): medians over the rounds per engine,
 * PostgreSQL's rate over SQLite's, the runs.
 */
function readsRow(target: Target, byEngine: Rate[][]): Record<string, string | number> {
  const [sqlite, postgres] = byEngine.map((runs) => ({
    rps: median(runs.map((r) => r.rps)),
    p99: median(runs.map((r) => r.p99)),
    all: runs.map((r) => r.rps).join(', '),
  }));
  // Each round's two loads ran one after the other: their ratio meets the least load drift.
  const paired = byEngine[1]!.map((pg, i) => pg.rps / byEngine[0]![i]!.rps);
  return {
    target: target.name,
    'SQLite req/s (p99 ms)': `${round(sqlite!.rps)} (${sqlite!.p99})`,
    'PostgreSQL req/s (p99 ms)': `${round(postgres!.rps)} (${postgres!.p99})`,
    'PostgreSQL / SQLite per round, median (range)': `${median(paired).toFixed(2)} (${Math.min(...paired).toFixed(2)}–${Math.max(...paired).toFixed(2)})`,
    'SQLite runs': sqlite!.all,
    'PostgreSQL runs': postgres!.all,
  };
}

/**
 * `npm run bench -- reads`: whether the engine changes the request rates. The same generated
 * dataset of `count` reviews in a SQLite store and in a PostgreSQL database, an instance on each
 * (and one more on each with the response cache off, for computed searches), then every target
 * loaded on one engine's instance and at once on the other's (BENCH_DURATION seconds each), in
 * `rounds` rounds whose order alternates (SQLite first, then PostgreSQL first, ...), so that both
 * engines meet the same machine load. Medians over the rounds, and PostgreSQL's rate over SQLite's.
 */
export async function benchReads(
  count: number,
  rounds: number,
): Promise<Record<string, string | number>[]> {
  const dbs = [await benchDatabase('sqlite', 'reads'), await benchDatabase('postgres', 'reads')];
  const children: ChildProcess[] = [];
  try {
    const file = join(dbs[0]!.dir, 'data.json');
    generateDataset(count, file);
    const { cached, computed } = await startInstances(dbs, file, children);
    const etag = (await fetch(`${cached[0]}/reviews.json`, { method: 'HEAD' })).headers.get(
      'etag',
    )!;
    const targets = readTargets(count, etag, cached, computed);
    const results = await loadInTurns(targets, rounds);
    return targets.map((target, t) => readsRow(target, results[t]!));
  } finally {
    for (const c of children) c.kill('SIGKILL');
    await new Promise((r) => setTimeout(r, 200));
    for (const db of dbs) await db.drop();
  }
}
