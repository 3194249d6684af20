import { spawnSync, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { ReviewSource } from '../../src/domain/review.js';
import { ingest } from '../../src/import/ingest.js';
import { loadSampleFile } from '../../src/import/sample.js';
import { openStore } from '../../src/store/index.js';
import { benchDatabase, type Engine } from './engines.js';
import {
  hasCommand,
  IDENTITY_HEAD,
  load,
  memoryOf,
  ROOT,
  startService,
  table,
  type LoadOptions,
  type LoadResult,
} from './harness.js';

const BENCH_DURATION = Number(process.env.BENCH_DURATION ?? 10);
import { startNginx } from './nginx.js';

interface SearchShape {
  name: string;
  query: string;
}

/** Generates `count` reviews with the sample generator into a sample-format file. */
export function generateDataset(count: number, out: string): void {
  const run = spawnSync(
    process.execPath,
    [join(ROOT, 'dist/tools/sample/cli.js'), '--count', String(count), '--out', out],
    { stdio: 'inherit' },
  );
  if (run.status !== 0) throw new Error('the sample generator failed');
}

/**
 * A fresh temporary folder and a store of `engine` (SQLite in the folder by default) loaded with
 * `count` generated reviews, for one benchmark; the caller calls `drop` when done.
 */
export async function benchStore(
  name: string,
  count: number,
  engine: Engine = 'sqlite',
): Promise<{ dir: string; databaseUrl: string; drop(): Promise<void> }> {
  const db = await benchDatabase(engine, `${name}-${count}`);
  const file = join(db.dir, 'data.json');
  generateDataset(count, file);
  const store = openStore(db.databaseUrl);
  await loadSampleFile(store, file);
  await store.close();
  return db;
}

async function get(url: string, headers: Record<string, string> = {}) {
  const res = await fetch(url, { headers: { 'Accept-Encoding': 'identity', ...headers } });
  return { res, bytes: Buffer.from(await res.arrayBuffer()) };
}

async function searchShapes(url: string): Promise<SearchShape[]> {
  const doc = (await (await fetch(`${url}/reviews.json`)).json()) as {
    reviews: { date: string; mentions: { technicians: { name: string }[] } }[];
  };
  const newest = doc.reviews[0]!.date;
  const yearBefore = `${Number(newest.slice(0, 4)) - 1}${newest.slice(4)}`;
  const counts = new Map<string, number>();
  for (const r of doc.reviews)
    for (const t of r.mentions.technicians) counts.set(t.name, (counts.get(t.name) ?? 0) + 1);
  const tech = [...counts.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] ?? 'nobody';
  return [
    { name: 'search rating=5', query: 'rating=5&limit=20' },
    {
      name: 'search technician+since',
      query: `mentions_technician=${encodeURIComponent(tech)}&since=${yearBefore}`,
    },
    { name: 'search query+min_rating', query: 'query=brake&min_rating=3&limit=50' },
    // Issue 28: what reviews are about, from the version's aspect lists (goal: p99 < 5 ms on one
    // connection at 100,000 reviews, computed).
    { name: 'search aspect+polarity', query: 'aspect=wait-time&polarity=negative&limit=20' },
  ];
}

async function measureLiveUpdate(
  url: string,
  databaseUrl: string,
): Promise<{ liveMs: number; slowestMs: number }> {
  const before = (await fetch(`${url}/reviews.json`, IDENTITY_HEAD)).headers.get('etag');
  const store = openStore(databaseUrl);
  const started = performance.now();
  await ingest(store, {
    reviews: [
      ReviewSource.parse({
        source: 'google',
        sourceReviewId: `bench-live-${Date.now()}`,
        reviewRating: { ratingValue: 5 },
        reviewBody: 'Benchmark review: quick oil change, thanks!',
        author: { name: 'Bench' },
        datePublished: new Date().toISOString(),
      }),
    ],
  });
  await store.close();
  // The slowest of these HEAD requests is the longest the rebuild kept a request waiting.
  let slowest = 0;
  for (;;) {
    const sent = performance.now();
    const etag = (await fetch(`${url}/reviews.json`, IDENTITY_HEAD)).headers.get('etag');
    slowest = Math.max(slowest, performance.now() - sent);
    if (etag !== before) {
      return { liveMs: Math.round(performance.now() - started), slowestMs: Math.round(slowest) };
    }
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** Sends SIGTERM (once) and waits for the exit, or kills after 10 s. */
export function stopped(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const kill = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.once('exit', () => {
      clearTimeout(kill);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/** A target of the comparison: its path on the service and on nginx, and its load. */
interface Target {
  name: string;
  path: string;
  nginxPath: string;
  options: LoadOptions;
}

/**
 * The targets loaded on the service and on nginx: the dataset (identity, gzip, a 304 for `etag`)
 * and the feed.
 */
function nginxTargets(count: number, etag: string): Target[] {
  const big = count > 10_000;
  // A 100 MB body is limited by the load generator parsing it: few connections, same for both servers.
  // It also takes seconds per request, so the run is longer to count more than a handful.
  const conn = big ? 2 : 32;
  const bigDuration = big ? { duration: Math.max(30, BENCH_DURATION) } : {};
  const big304 = { headers: { 'If-None-Match': etag } };
  return [
    {
      name: '/reviews.json',
      path: '/reviews.json',
      nginxPath: '/reviews.json',
      options: { connections: conn, ...bigDuration },
    },
    {
      name: '/reviews.json gzip',
      path: '/reviews.json',
      nginxPath: '/reviews.json',
      options: { connections: conn, headers: { 'Accept-Encoding': 'gzip' }, ...bigDuration },
    },
    {
      name: '/reviews.json 304',
      path: '/reviews.json',
      nginxPath: '/reviews.json',
      options: big304,
    },
    { name: '/api/feed.json', path: '/api/feed.json', nginxPath: '/feed.json', options: {} },
  ];
}

/**
 * Loads each target on the service, each followed at once by the same load on nginx (if
 * installed) serving the same bytes (`dataset` and `feed`, as the service served them): every
 * row, and the node/nginx ratios.
 */
async function compareWithNginx(
  url: string,
  dir: string,
  count: number,
  dataset: Buffer,
  feed: Buffer,
  etag: string,
): Promise<{ rows: LoadResult[]; ratios: Record<string, string | number>[] }> {
  const rows: LoadResult[] = [];
  const ratios: Record<string, string | number>[] = [];
  const nginx = hasCommand('nginx')
    ? await startNginx(join(dir, 'nginx'), {
        'reviews.json': dataset,
        'reviews.json.gz': gzipSync(dataset, { level: 9 }),
        'feed.json': feed,
      })
    : null;
  try {
    const nginxEtag = nginx
      ? (await get(`${nginx.url}/reviews.json`)).res.headers.get('etag')!
      : '';
    // Each node row is followed at once by the same load on nginx, so that both halves of a
    // ratio see the same machine (on a shared machine, minutes apart is not the same).
    for (const t of nginxTargets(count, etag)) {
      const mine = await load(`node ${t.name}`, `${url}${t.path}`, t.options);
      rows.push(mine);
      if (!nginx) continue;
      const theirOptions = t.name.endsWith('304')
        ? { headers: { 'If-None-Match': nginxEtag } }
        : t.options;
      const theirs = await load(`nginx ${t.name}`, `${nginx.url}${t.nginxPath}`, theirOptions);
      rows.push(theirs);
      ratios.push({
        target: t.name,
        'node req/s': mine.rps,
        'nginx req/s': theirs.rps,
        'node/nginx req/s': (mine.rps / theirs.rps).toFixed(2),
        // Bytes per second: the finer measure when a body takes seconds (same bodies, so the
        // same ratio up to the response headers); meaningless for 304s, which have none.
        'node/nginx MB/s': t.name.endsWith('304')
          ? ''
          : (mine.throughputMBs / theirs.throughputMBs).toFixed(2),
      });
    }
  } finally {
    nginx?.child.kill('SIGTERM');
  }
  return { rows, ratios };
}

/**
 * Each search shape on the service with the response cache (32 connections), on the one without
 * it (computed), and on that one with a single connection.
 */
async function loadSearches(url: string, uncachedUrl: string): Promise<LoadResult[]> {
  const rows: LoadResult[] = [];
  for (const shape of await searchShapes(url)) {
    const path = `/api/reviews/search?${shape.query}`;
    rows.push(await load(`node ${shape.name} (cached)`, `${url}${path}`));
    rows.push(await load(`node ${shape.name} (computed)`, `${uncachedUrl}${path}`));
    rows.push(
      await load(`node ${shape.name} (computed, 1 connection)`, `${uncachedUrl}${path}`, {
        connections: 1,
      }),
    );
  }
  return rows;
}

/** The rows of every load, as the table prints them. */
function loadTable(rows: LoadResult[]): string {
  return table(
    rows.map((r) => ({
      target: r.name,
      'req/s': r.rps,
      'p50 ms': r.p50,
      'p99 ms': r.p99,
      'MB/s': r.throughputMBs,
      'non-2xx': r.non2xx,
      errors: r.errors,
    })),
  );
}

/** Benchmarks the read API at one dataset size against nginx serving the same bytes. */
export async function benchHttp(count: number, engine: Engine = 'sqlite'): Promise<string> {
  const { dir, databaseUrl, drop } = await benchStore('http', count, engine);

  const started = performance.now();
  const svc = await startService({ DATABASE_URL: databaseUrl });
  const startupMs = Math.round(performance.now() - started);
  const uncached = await startService({ DATABASE_URL: databaseUrl, RESPONSE_CACHE_ENTRIES: '0' });
  try {
    const dataset = await get(`${svc.url}/reviews.json`);
    const etag = dataset.res.headers.get('etag')!;
    const feed = await get(`${svc.url}/api/feed.json`);
    const { rows, ratios } = await compareWithNginx(
      svc.url,
      dir,
      count,
      dataset.bytes,
      feed.bytes,
      etag,
    );
    rows.push(...(await loadSearches(svc.url, uncached.url)));
    // The second service would rebuild too and compete for the CPU: stop it first.
    uncached.child.kill('SIGTERM');
    const { liveMs, slowestMs } = await measureLiveUpdate(svc.url, databaseUrl);
    const mem = memoryOf(svc.child.pid!);
    const out = [
      `### ${count.toLocaleString('en-US')} reviews, ${engine} (/reviews.json ${(dataset.bytes.length / 1024 / 1024).toFixed(1)} MB)`,
      '',
      loadTable(rows),
      '',
      ratios.length ? table(ratios) : '(nginx not installed: no comparison)',
      '',
      `start-up to ready: ${startupMs} ms; import committed -> new ETag served: ${liveMs} ms (slowest request meanwhile ${slowestMs} ms); service RSS ${mem.rssMB} MB (peak ${mem.peakMB} MB)`,
      '',
    ].join('\n');
    return out;
  } finally {
    // Both services stopped before their store goes (a PostgreSQL database is dropped).
    await Promise.all([stopped(svc.child), stopped(uncached.child)]);
    await drop();
  }
}
