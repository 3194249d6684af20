/**
 * `npm run bench -- pages`: the HTML pages at BENCH_SIZES (default 1,000 and 100,000 reviews).
 *
 * - Sizes of `/`, `/insights`, `/embed`, a review page and a filtered view: identity, gzip, br.
 * - Requests per second of `/` against `/api/feed.json` (the goal: at least half), both brotli
 *   and identity, and of the other pages (cached: once per version, or in the response cache).
 * - Rendering on the event loop: the service's event-loop delay (monitorEventLoopDelay in its
 *   process) while pages nobody asked for before are rendered one after another (filtered views,
 *   deep pages, review pages, sitemap files), and while a new data version goes live and its
 *   `/`, `/insights` and `/embed` are rendered.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { ReviewSource } from '../../src/domain/review.js';
import { ingest } from '../../src/import/ingest.js';
import { openStore } from '../../src/store/index.js';
import { freePort, IDENTITY_HEAD, load, ROOT, table, waitFor, type LoadResult } from './harness.js';
import { benchStore } from './http.js';
import { DELAY_HOOK } from './watched-service.js';

interface Service {
  url: string;
  child: ChildProcess;
  loop(): Promise<{ maxMs: number; p99Ms: number }>;
}

async function startService(databaseUrl: string): Promise<Service> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, ['--import', DELAY_HOOK, join(ROOT, 'dist/src/main.js')], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      BASE_URL: url,
      DATABASE_URL: databaseUrl,
      SAMPLE_DATA: 'off',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'inherit', 'pipe'],
  });
  const waiting: ((line: string) => void)[] = [];
  child.stderr!.on('data', (d: Buffer) => {
    for (const line of d.toString().split('\n')) {
      if (line.startsWith('LOOP ')) waiting.shift()?.(line.slice(5));
      else if (line) process.stderr.write(`${line}\n`);
    }
  });
  await waitFor(`${url}/healthz`, 600_000);
  return {
    url,
    child,
    loop: () =>
      new Promise((resolve) => {
        waiting.push((line) => resolve(JSON.parse(line) as { maxMs: number; p99Ms: number }));
        child.kill('SIGUSR2');
      }),
  };
}

async function size(url: string, coding: string): Promise<number> {
  const res = await fetch(url, { headers: { 'Accept-Encoding': coding } });
  if (!res.ok) throw new Error(`${url}: ${res.status}`);
  // fetch decodes the body: the length on the wire is the header.
  const length = Number(res.headers.get('content-length'));
  await res.arrayBuffer();
  return length;
}

const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;

/**
 * Requests pages not rendered before, one at a time, each under the service's event-loop monitor:
 * the response time and the longest event-loop delay of each.
 */
async function renderTimes(
  svc: Service,
  paths: string[],
): Promise<{ p50: number; max: number; loop: { path: string; maxMs: number }[] }> {
  const times: number[] = [];
  const loop: { path: string; maxMs: number }[] = [];
  for (const path of paths) {
    await svc.loop();
    const started = performance.now();
    const res = await fetch(`${svc.url}${path}`, { headers: { 'Accept-Encoding': 'br' } });
    await res.arrayBuffer();
    if (!res.ok) throw new Error(`${path}: ${res.status}`);
    times.push(performance.now() - started);
    loop.push({ path, maxMs: (await svc.loop()).maxMs });
  }
  times.sort((a, b) => a - b);
  loop.sort((a, b) => b.maxMs - a.maxMs);
  return { p50: times[Math.floor(times.length / 2)]!, max: times.at(-1)!, loop };
}

/**
 * Imports one review and waits until `/` and then `/insights` show the new version (the insights
 * follow the rest): the span in which the new version's pages are rendered.
 */
async function newVersion(url: string, databaseUrl: string): Promise<void> {
  const etag = async (path: string) =>
    (await fetch(`${url}${path}`, IDENTITY_HEAD)).headers.get('etag');
  const before = { home: await etag('/'), insights: await etag('/insights') };
  const store = openStore(databaseUrl);
  await ingest(store, {
    reviews: [
      ReviewSource.parse({
        source: 'google',
        sourceReviewId: `bench-pages-${Date.now()}`,
        reviewRating: { ratingValue: 5 },
        reviewBody: 'Benchmark review: quick oil change, thanks!',
        author: { name: 'Bench' },
        datePublished: new Date().toISOString(),
      }),
    ],
  });
  await store.close();
  for (const [path, tag] of [
    ['/', before.home],
    ['/insights', before.insights],
  ] as const) {
    while ((await etag(path)) === tag) await new Promise((r) => setTimeout(r, 20));
  }
}

/** Each page's size on the wire: identity, gzip, br. */
async function pageSizes(url: string, pages: [string, string][]) {
  const sizes = [];
  for (const [name, path] of pages) {
    sizes.push({
      page: name,
      identity: kb(await size(`${url}${path}`, 'identity')),
      gzip: kb(await size(`${url}${path}`, 'gzip')),
      br: kb(await size(`${url}${path}`, 'br')),
    });
  }
  return sizes;
}

/**
 * Pages nobody asked for before, at `count` reviews: filtered views (text queries, the first six
 * of `staff`), deep pages up to `deepest`, the review pages of `ids` but the first, sitemap files.
 */
function freshPaths(count: number, deepest: number, ids: string[], staff: string[]): string[] {
  return [
    ...['brake', 'oil', 'wait', 'loaner', 'price', 'friendly', 'rude', 'shuttle'].map(
      (q) => `/?query=${q}`,
    ),
    ...staff.slice(0, 6).map((n) => `/?mentions_technician=${encodeURIComponent(n)}&min_rating=3`),
    ...[2, 10, Math.floor(deepest / 2), deepest].map((p) => `/?page=${p}`),
    ...ids.slice(1, 21).map((id) => `/reviews/${id}`),
    ...Array.from(
      { length: Math.min(5, Math.ceil(count / 10_000)) },
      (_, i) => `/sitemaps/${i + 1}.xml`,
    ),
  ];
}

/**
 * Loads `/` against `/api/feed.json` (brotli and identity), then the other pages (cached): every
 * row, and the four of the comparison.
 */
async function pageLoads(url: string, firstId: string | undefined) {
  const rows: LoadResult[] = [];
  const br = { headers: { 'Accept-Encoding': 'br' } };
  const feedBr = await load('/api/feed.json br', `${url}/api/feed.json`, br);
  const homeBr = await load('/ br', `${url}/`, br);
  const feedId = await load('/api/feed.json identity', `${url}/api/feed.json`);
  const homeId = await load('/ identity', `${url}/`);
  rows.push(feedBr, homeBr, feedId, homeId);
  rows.push(await load('/insights br', `${url}/insights`, br));
  rows.push(await load('/embed br', `${url}/embed`, br));
  rows.push(await load('/reviews/{id} br (cached)', `${url}/reviews/${firstId}`, br));
  rows.push(await load('/?rating=5 br (cached)', `${url}/?rating=5`, br));
  return { rows, feedBr, homeBr, feedId, homeId };
}

/** Benchmarks the pages at one dataset size. */
export async function benchPages(count: number): Promise<string> {
  const { dir, databaseUrl } = await benchStore('pages', count);
  const svc = await startService(databaseUrl);
  try {
    const { url } = svc;
    const doc = (await (await fetch(`${url}/api/reviews/search?limit=100`)).json()) as {
      reviews: { id: string; mentions: { technicians: { name: string }[] } }[];
    };
    const ids = doc.reviews.map((r) => r.id);
    const staff = [
      ...new Set(doc.reviews.flatMap((r) => r.mentions.technicians.map((t) => t.name))),
    ];
    const sizes = await pageSizes(url, [
      ['/', '/'],
      ['/insights', '/insights'],
      ['/embed', '/embed'],
      ['/reviews/{id}', `/reviews/${ids[0]}`],
      ['/?rating=5', '/?rating=5'],
    ]);

    const deepest = Math.floor(count / 20);
    const fresh = freshPaths(count, deepest, ids, staff);
    const uncached = await renderTimes(svc, fresh);
    await svc.loop();
    await newVersion(url, databaseUrl);
    const versionLoop = await svc.loop();

    const { rows, feedBr, homeBr, feedId, homeId } = await pageLoads(url, ids[0]);
    return [
      `### ${count.toLocaleString('en-US')} reviews`,
      '',
      table(sizes),
      '',
      table(
        rows.map((r) => ({
          target: r.name,
          'req/s': r.rps,
          'p50 ms': r.p50,
          'p99 ms': r.p99,
          'non-2xx': r.non2xx,
          errors: r.errors,
        })),
      ),
      '',
      `/ vs /api/feed.json req/s: ${(homeBr.rps / feedBr.rps).toFixed(2)} (br), ${(homeId.rps / feedId.rps).toFixed(2)} (identity); goal at least 0.5`,
      '',
      `${fresh.length} pages rendered on first request (filtered views, pages 2 to ${deepest}, review pages, sitemap files): response p50 ${uncached.p50.toFixed(1)} ms, max ${uncached.max.toFixed(1)} ms; longest event-loop delays: ${uncached.loop
        .slice(0, 4)
        .map((l) => `${l.maxMs.toFixed(1)} ms (${l.path.slice(0, 60)})`)
        .join(', ')}`,
      `a new data version going live, from the import's commit until / and /insights show it (built in the worker; its /, /insights and /embed rendered on the event loop): event-loop delay max ${versionLoop.maxMs.toFixed(1)} ms, p99 ${versionLoop.p99Ms.toFixed(1)} ms`,
      '',
    ].join('\n');
  } finally {
    svc.child.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  }
}
