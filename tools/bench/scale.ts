/**
 * `npm run bench -- import startup etag` (any of the three runs all): per engine, 100,000
 * generated reviews (BENCH_SCALE_COUNT) imported through the real CLI into an empty store (time,
 * peak RSS of the CLI process), the service started on it (start to ready, RSS), a second
 * instance started, one new review imported through the CLI (its wall time), then one more
 * committed by the bench itself: from its commit, the time until each instance noticed it (its
 * log) and until each serves the new `/reviews.json` ETag.
 *
 * `npm run bench -- notify`: the same two figures for a series of changes (BENCH_NOTIFY_CHANGES,
 * default 10) to a smaller store (BENCH_NOTIFY_COUNT reviews, default 1,000), per instance.
 *
 * `npm run bench -- reads`: the request rates of an instance on each engine over the same data,
 * measured in turns (see `benchReads`).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ReviewSource } from '../../src/domain/review.js';
import { ingestStream } from '../../src/import/ingest.js';
import { openStore, type Store } from '../../src/store/index.js';
import { benchDatabase, type Engine } from './engines.js';
import { loadSampleFile } from '../../src/import/sample.js';
import {
  IDENTITY_HEAD,
  load,
  memoryOf,
  ROOT,
  startService,
  type LoadOptions,
  type LogEntry,
} from './harness.js';
import { generateDataset } from './http.js';
import { gbpChunks } from './import-data.js';

const BIN = join(ROOT, 'dist', 'src', 'bin.js');
const BUSINESS = join(ROOT, 'test', 'fixtures', 'business.json');
const RSS_HOOK =
  "data:text/javascript,process.on('exit',()=>process.stderr.write('\\nmaxrss_kb='+process.resourceUsage().maxRSS+'\\n'))";

async function writeFile(path: string, chunks: Iterable<string>): Promise<void> {
  const out = createWriteStream(path);
  for (const chunk of chunks) {
    if (!out.write(chunk)) await new Promise<void>((r) => out.once('drain', () => r()));
  }
  await new Promise<void>((r, j) => out.end((err?: Error | null) => (err ? j(err) : r())));
}

/** `dealer-reviews import <file> --json` as a process: wall time and peak RSS. */
function importFile(file: string, databaseUrl: string): Promise<{ s: number; peakMB: number }> {
  return runBin(['import', file, '--json'], databaseUrl);
}

/** `dealer-reviews <args>` as a process: wall time and peak RSS. */
function runBin(
  args: readonly string[],
  databaseUrl: string,
): Promise<{ s: number; peakMB: number }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, ['--import', RSS_HOOK, BIN, ...args], {
      env: { ...process.env, DATABASE_URL: databaseUrl },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`${args[0]} exited ${code}: ${stderr.trim()}`));
      const kb = Number(/maxrss_kb=(\d+)/.exec(stderr)?.[1] ?? Number.NaN);
      resolve({ s: (performance.now() - started) / 1000, peakMB: Math.round(kb / 1024) });
    });
  });
}

const etagOf = async (url: string): Promise<string | null> =>
  (await fetch(`${url}/reviews.json`, IDENTITY_HEAD)).headers.get('etag');

/** A running instance whose log lines the bench reads. */
interface Watched {
  url: string;
  child: ChildProcess;
  logs: LogEntry[];
}

async function startWatched(env: Record<string, string>): Promise<Watched> {
  const logs: LogEntry[] = [];
  // At info: the publisher's 'noticed a new data version' (no request is logged below debug).
  const svc = await startService({ ...env, LOG_LEVEL: 'info' }, { logs });
  return { ...svc, logs };
}

let changes = 0;

/** A new review, dated now (after every generated one): every document changes. */
function liveReview(): ReviewSource {
  const n = ++changes;
  return ReviewSource.parse({
    source: 'google',
    sourceReviewId: `bench-live-${process.pid}-${Date.now()}-${n}`,
    reviewRating: { ratingValue: 5 },
    reviewBody: `Quick oil change number ${n}, thanks!`,
    author: { name: `Live Bench ${n}` },
    datePublished: new Date().toISOString(),
  });
}

/** From a commit: when each instance noticed it, rebuilt it and served its ETag, in ms. */
interface ChangeTiming {
  notice: (number | undefined)[];
  /** The rebuild alone (the publisher's `ms` for the version). */
  build: (number | undefined)[];
  etag: (number | undefined)[];
}

/**
 * Commits one new review from this process and measures, per instance, the time until its
 * publisher logged that it noticed the new version (pino's `time`, the same clock), how long its
 * rebuild took (its log), and the time until it served the new ETag (`HEAD` every 10 ms on each).
 * The times run from the moment the bench sent the `COMMIT` (or, on SQLite, began applying the
 * staged writes): the commit happens after it, so they are upper bounds.
 */
async function measureChange(store: Store, instances: readonly Watched[]): Promise<ChangeTiming> {
  const before = await Promise.all(instances.map((i) => etagOf(i.url)));
  let committing = 0;
  let fromStart = 0;
  const result = await ingestStream(store, {
    batches: () => [[liveReview()]],
    beforeCommit: () => {
      committing = Date.now();
      fromStart = performance.now();
    },
  });
  const version = result.state!.version;
  const etag: (number | undefined)[] = instances.map(() => undefined);
  while (etag.includes(undefined) && performance.now() - fromStart < 120_000) {
    await Promise.all(
      instances.map(async (svc, n) => {
        if (etag[n] === undefined && (await etagOf(svc.url)) !== before[n]) {
          etag[n] = performance.now() - fromStart;
        }
      }),
    );
    await new Promise((r) => setTimeout(r, 10));
  }
  // The log lines travel through a pipe: they may arrive after the new ETag is served.
  await new Promise((r) => setTimeout(r, 500));
  const logged = (svc: Watched, msg: string) =>
    svc.logs.find((e) => e.msg === msg && e.version === version);
  return {
    notice: instances.map((svc) => {
      const entry = logged(svc, 'noticed a new data version');
      return entry ? entry.time - committing : undefined;
    }),
    build: instances.map((svc) => logged(svc, 'published a new data version')?.ms as number),
    etag,
  };
}

/**
 * Resolves once every instance serves an ETag other than `before` and has published that
 * version's insights (its log says so), or 60 s later.
 */
async function settled(instances: readonly Watched[], before: string | null): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (const svc of instances) {
    while (Date.now() < deadline) {
      if ((await etagOf(svc.url)) !== before) {
        const { dataVersion } = (await (await fetch(`${svc.url}/healthz`)).json()) as {
          dataVersion: number;
        };
        const done = svc.logs.some(
          (e) => e.msg === 'published a document of the data version' && e.version === dataVersion,
        );
        if (done) break;
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}

const ms = (x: number | undefined) => (x === undefined ? 'timeout' : x.toFixed(0));

export async function benchScale(
  engine: Engine,
  count: number,
): Promise<Record<string, string | number>> {
  const db = await benchDatabase(engine, `scale-${engine}`);
  const file = join(db.dir, `gbp-${count}.json`);
  const one = join(db.dir, 'one.json');
  const children: ChildProcess[] = [];
  let store: Store | null = null;
  try {
    await writeFile(file, gbpChunks(count));
    await importFile(BUSINESS, db.databaseUrl);
    const imported = await importFile(file, db.databaseUrl);
    const env = { DATABASE_URL: db.databaseUrl, MALLOC_MMAP_THRESHOLD_: '131072' };
    const started = performance.now();
    const a = await startWatched(env);
    children.push(a.child);
    const startupS = (performance.now() - started) / 1000;
    const rssA = memoryOf(a.child.pid!);
    const b = await startWatched(env);
    children.push(b.child);
    // A new review, dated after every generated one, through the CLI like any import.
    const id = `bench-live-${Date.now()}`;
    const now = new Date().toISOString();
    const gbp = JSON.stringify({
      reviews: [
        {
          name: `accounts/1/locations/2/reviews/${id}`,
          reviewId: id,
          reviewer: { displayName: 'Live Bench' },
          starRating: 'FIVE',
          comment: 'Quick oil change, thanks!',
          createTime: now,
          updateTime: now,
        },
      ],
    });
    writeFileSync(one, gbp);
    const beforeCli = await etagOf(a.url);
    const live = await importFile(one, db.databaseUrl);
    // Both serve it, and have built its insights, before the measured change.
    await settled([a, b], beforeCli);
    store = openStore(db.databaseUrl);
    const t = await measureChange(store, [a, b]);
    return {
      engine,
      reviews: count,
      'import (s)': imported.s.toFixed(1),
      'import peak RSS (MB)': imported.peakMB,
      'start → ready (s)': startupS.toFixed(1),
      'instance RSS ready (MB)': rssA.rssMB,
      'import of 1 (s)': live.s.toFixed(1),
      'commit → notice, A / B (ms)': `${ms(t.notice[0])} / ${ms(t.notice[1])}`,
      'rebuild, A / B (ms)': `${ms(t.build[0])} / ${ms(t.build[1])}`,
      'commit → new ETag, A / B (ms)': `${ms(t.etag[0])} / ${ms(t.etag[1])}`,
    };
  } finally {
    for (const c of children) c.kill('SIGKILL');
    await store?.close();
    await new Promise((r) => setTimeout(r, 200));
    await db.drop();
  }
}

/**
 * The smallest, median and largest of some measures, in ms; those missing (a timeout, a log line
 * not found) are counted apart.
 */
function spread(values: (number | undefined)[]): string {
  const done = values.filter((v): v is number => v !== undefined).sort((x, y) => x - y);
  const missed = values.length - done.length;
  if (done.length === 0) return 'none';
  const median = done[Math.floor((done.length - 1) / 2)]!;
  const text = `${ms(done[0])} / ${ms(median)} / ${ms(done.at(-1))}`;
  return missed > 0 ? `${text} (${missed} missing)` : text;
}

/**
 * `npm run bench -- notify`: two instances on a store of `count` generated reviews; `rounds`
 * times, one new review committed by the bench (once both instances served the previous one with
 * its insights), and per instance the time from the commit until it noticed the
 * change and until it served the new ETag: smallest / median / largest.
 */
export async function benchNotify(
  engine: Engine,
  count: number,
  rounds: number,
): Promise<Record<string, string | number>[]> {
  const db = await benchDatabase(engine, `notify-${engine}`);
  const file = join(db.dir, `gbp-${count}.json`);
  const children: ChildProcess[] = [];
  let store: Store | null = null;
  try {
    await writeFile(file, gbpChunks(count));
    await importFile(BUSINESS, db.databaseUrl);
    await importFile(file, db.databaseUrl);
    const env = { DATABASE_URL: db.databaseUrl };
    const instances = [await startWatched(env), await startWatched(env)];
    children.push(...instances.map((i) => i.child));
    store = openStore(db.databaseUrl);
    const timings: ChangeTiming[] = [];
    for (let i = 0; i < rounds; i++) {
      const before = await etagOf(instances[0]!.url);
      timings.push(await measureChange(store, instances));
      await settled(instances, before);
    }
    return instances.map((_, n) => ({
      engine,
      reviews: count,
      changes: rounds,
      instance: 'AB'[n]!,
      'commit → notice, min / median / max (ms)': spread(timings.map((t) => t.notice[n])),
      'rebuild (ms)': spread(timings.map((t) => t.build[n])),
      'commit → new ETag (ms)': spread(timings.map((t) => t.etag[n])),
    }));
  } finally {
    for (const c of children) c.kill('SIGKILL');
    await store?.close();
    await new Promise((r) => setTimeout(r, 200));
    await db.drop();
  }
}

/**
 * `npm run bench -- migrate`: `count` generated reviews imported into a SQLite store, then
 * `dealer-reviews migrate-store` into an empty PostgreSQL database: its wall time and peak RSS.
 */
export async function benchMigrate(count: number): Promise<Record<string, string | number>> {
  const source = await benchDatabase('sqlite', 'migrate-source');
  const target = await benchDatabase('postgres', 'migrate-target');
  try {
    const file = join(source.dir, `gbp-${count}.json`);
    await writeFile(file, gbpChunks(count));
    await importFile(BUSINESS, source.databaseUrl);
    await importFile(file, source.databaseUrl);
    const run = await runBin(
      ['migrate-store', '--from', source.databaseUrl, '--to', target.databaseUrl, '--json'],
      source.databaseUrl,
    );
    return {
      reviews: count,
      'migrate-store sqlite → postgres (s)': run.s.toFixed(1),
      'peak RSS (MB)': run.peakMB,
    };
  } finally {
    await source.drop();
    await target.drop();
  }
}

/** Rates below 100 keep one decimal (MB/s). */
const round = (x: number): number => (x < 100 ? Math.round(x * 10) / 10 : Math.round(x));

/** The median of some numbers. */
const median = (xs: readonly number[]): number => {
  const sorted = [...xs].sort((x, y) => x - y);
  const mid = sorted.length / 2;
  return sorted.length % 2 ? sorted[Math.floor(mid)]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

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
    const big = count > 10_000;
    const etag = (await fetch(`${cached[0]}/reviews.json`, { method: 'HEAD' })).headers.get(
      'etag',
    )!;
    const targets: { name: string; path: string; urls: string[]; options: LoadOptions }[] = [
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
    const results = targets.map(() => [[], []] as { rps: number; p99: number }[][]);
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
    return targets.map((target, t) => {
      const [sqlite, postgres] = results[t]!.map((runs) => ({
        rps: median(runs.map((r) => r.rps)),
        p99: median(runs.map((r) => r.p99)),
        all: runs.map((r) => r.rps).join(', '),
      }));
      // Each round's two loads ran one after the other: their ratio meets the least load drift.
      const paired = results[t]![1]!.map((pg, i) => pg.rps / results[t]![0]![i]!.rps);
      return {
        target: target.name,
        'SQLite req/s (p99 ms)': `${round(sqlite!.rps)} (${sqlite!.p99})`,
        'PostgreSQL req/s (p99 ms)': `${round(postgres!.rps)} (${postgres!.p99})`,
        'PostgreSQL / SQLite per round, median (range)': `${median(paired).toFixed(2)} (${Math.min(...paired).toFixed(2)}–${Math.max(...paired).toFixed(2)})`,
        'SQLite runs': sqlite!.all,
        'PostgreSQL runs': postgres!.all,
      };
    });
  } finally {
    for (const c of children) c.kill('SIGKILL');
    await new Promise((r) => setTimeout(r, 200));
    for (const db of dbs) await db.drop();
  }
}
