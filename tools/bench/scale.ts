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
 * `npm run bench -- reads` is in reads.ts.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ReviewSource } from '../../src/domain/review.js';
import { ingestStream } from '../../src/import/ingest.js';
import { openStore, type Store } from '../../src/store/index.js';
import { benchDatabase, type Engine } from './engines.js';
import { IDENTITY_HEAD, memoryOf, ROOT, startService, type LogEntry } from './harness.js';
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
