/**
 * `npm run bench -- import startup etag` (any of the three runs all): per engine, 100,000
 * generated reviews (BENCH_SCALE_COUNT) imported through the real CLI into an empty store (time,
 * peak RSS of the CLI process), the service started on it (start to ready, RSS), a second
 * instance started, then one new review imported through the CLI and the time from the end of
 * that command (its commit) until each instance serves the new `/reviews.json` ETag.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { benchDatabase, type Engine } from './engines.js';
import { memoryOf, ROOT, startService } from './harness.js';
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
  (await fetch(`${url}/reviews.json`, { method: 'HEAD' })).headers.get('etag');

export async function benchScale(
  engine: Engine,
  count: number,
): Promise<Record<string, string | number>> {
  const db = await benchDatabase(engine, `scale-${engine}`);
  const file = join(db.dir, `gbp-${count}.json`);
  const one = join(db.dir, 'one.json');
  const children: ChildProcess[] = [];
  try {
    await writeFile(file, gbpChunks(count));
    await importFile(BUSINESS, db.databaseUrl);
    const imported = await importFile(file, db.databaseUrl);
    const env = { DATABASE_URL: db.databaseUrl, MALLOC_MMAP_THRESHOLD_: '131072' };
    const started = performance.now();
    const a = await startService(env);
    children.push(a.child);
    const startupS = (performance.now() - started) / 1000;
    const rssA = memoryOf(a.child.pid!);
    const b = await startService(env);
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
    const [beforeA, beforeB] = [await etagOf(a.url), await etagOf(b.url)];
    const live = await importFile(one, db.databaseUrl);
    const committed = performance.now();
    const seen: Record<string, number> = {};
    const deadline = committed + 120_000;
    while (Object.keys(seen).length < 2 && performance.now() < deadline) {
      for (const [name, svc, before] of [
        ['A', a, beforeA],
        ['B', b, beforeB],
      ] as const) {
        if (seen[name] === undefined && (await etagOf(svc.url)) !== before) {
          seen[name] = (performance.now() - committed) / 1000;
        }
      }
      await new Promise((r) => setTimeout(r, 10));
    }
    const ms = (s: number | undefined) => (s === undefined ? 'timeout' : (s * 1000).toFixed(0));
    return {
      engine,
      reviews: count,
      'import (s)': imported.s.toFixed(1),
      'import peak RSS (MB)': imported.peakMB,
      'start → ready (s)': startupS.toFixed(1),
      'instance RSS ready (MB)': rssA.rssMB,
      'import of 1 (s)': live.s.toFixed(1),
      'commit → new ETag, A (ms)': ms(seen.A),
      'commit → new ETag, B (ms)': ms(seen.B),
    };
  } finally {
    for (const c of children) c.kill('SIGKILL');
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
