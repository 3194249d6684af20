/**
 * `npm run bench -- metrics`: how long a Prometheus scrape holds the service's event loop (issue
 * 31: under 1 ms at 100,000 reviews). The service runs in this process over BENCH_METRICS_COUNT
 * reviews (default 100,000) with `METRICS_PORT`, after requests to every kind of route (so the
 * request histogram holds a realistic set of label values); curl, in a process of its own,
 * scrapes it BENCH_METRICS_SCRAPES times (default 200), once the version has settled (its
 * insights in, the previous version released). Reported: how long each scrape held the loop
 * (`timeScrapes`) and how much CPU time the process used meanwhile (the rest of the hold it waited
 * for a core, on a busy machine), and, as a cross-check, the longest gap between two turns of the
 * loop (a chain of `setImmediate` here) while scrapes run and while as many 404s run instead.
 */
import { spawn } from 'node:child_process';
import { setTimeout as delay } from 'node:timers/promises';
import { Registry } from 'prom-client';
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/logger.js';
import { startService } from '../../src/service.js';
import { table } from './harness.js';
import { benchStore } from './http.js';

/** Paths that reach each kind of route (and none), each asked twice: the histogram's label sets. */
const PATHS = [
  '/reviews.json',
  '/api/feed.json',
  '/feed.xml',
  '/insights.json',
  '/openapi.json',
  '/healthz',
  '/api/reviews/search?q=service',
  '/api/reviews/search?rating=9',
  '/api/reviews/since/2024-01-01',
  '/api/reviews/changes',
  '/',
  '/embed',
  '/no-such-path',
  '/mcp',
];

/** The gaps between turns of the loop while `during` runs: the longest and the 99th percentile. */
async function loopGaps(during: () => Promise<void>): Promise<{ maxMs: number; p99Ms: number }> {
  const gaps: number[] = [];
  let running = true;
  let last = performance.now();
  const turn = (): void => {
    const now = performance.now();
    gaps.push(now - last);
    last = now;
    if (running) setImmediate(turn);
  };
  setImmediate(turn);
  await during();
  running = false;
  gaps.sort((a, b) => a - b);
  const at = (q: number) => gaps[Math.min(gaps.length - 1, Math.floor(q * gaps.length))] ?? 0;
  return { maxMs: at(1), p99Ms: at(0.99) };
}

/** Runs curl in its own process: `times` scrapes of `url`, one after another. */
function curl(url: string, times: number): Promise<number> {
  const args = ['-s', '-o', '/dev/null', '-w', '%{size_download}\\n'];
  for (let i = 0; i < times; i++) args.push(url);
  return new Promise((resolve, reject) => {
    const child = spawn('curl', args, { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += String(d)));
    child.on('error', reject);
    child.on('exit', () => resolve(Number(out.trim().split('\n')[0] ?? 0)));
  });
}

/**
 * Times every scrape from now on: from `Registry.metrics()` being called to the next turn of the
 * loop (a `setImmediate`), which comes once the collection, the request histogram's text and the
 * write of the answer are done: they run in one go (the collection's steps are microtasks).
 */
function timeScrapes(): { holds: number[]; ran: number[] } {
  const holds: number[] = [];
  const ran: number[] = [];
  const original = Registry.prototype.metrics;
  Registry.prototype.metrics = function (this: Registry): Promise<string> {
    const started = performance.now();
    const cpu = threadCpuMs();
    setImmediate(() => {
      holds.push(performance.now() - started);
      ran.push(threadCpuMs() - cpu);
    });
    return original.call(this);
  };
  return { holds, ran };
}

/**
 * The CPU time the process has used (user and system): once the version has settled, its other
 * threads (the build worker, the store's) are idle, so what a hold adds is the main thread's own
 * work, without the time it waited for a core on a busy machine.
 */
function threadCpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/** The 50th and 99th percentiles and the largest of `values`, in ms with three decimals. */
function spread(values: number[]): string {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  return [at(0.5), at(0.99), at(1)].map((v) => v.toFixed(3)).join(' / ');
}

export async function benchMetricsScrape(count: number, scrapes: number): Promise<string> {
  const { databaseUrl, drop } = await benchStore('metrics', count);
  const config = loadConfig({
    DATABASE_URL: databaseUrl,
    PORT: '0',
    HOST: '127.0.0.1',
    METRICS_PORT: '0',
    SAMPLE_DATA: 'off',
    LOG_LEVEL: 'warn',
  });
  const svc = await startService(config, createLogger(config.logLevel));
  try {
    for (const path of PATHS) {
      for (const method of ['GET', 'HEAD']) {
        await (await fetch(`${svc.url}${path}`, { method })).arrayBuffer();
      }
    }
    await svc.publisher.settled();
    await delay(3_000); // the release of the start-up's garbage, a second after the version
    const url = `${svc.metricsUrl}/metrics`;
    await curl(url, 5); // warm: the first collection compiles its code
    const { holds, ran } = timeScrapes();
    const quiet = await loopGaps(() =>
      curl(`${svc.url}/no-such-path`, scrapes).then(() => undefined),
    );
    let bytes = 0;
    const scraped = await loopGaps(async () => {
      bytes = await curl(url, scrapes);
    });
    return table([
      {
        reviews: count.toLocaleString('en-US'),
        scrapes: holds.length,
        'scrape bytes': bytes,
        'hold p50 / p99 / max (ms)': spread(holds),
        'CPU time p50 / p99 / max (ms)': spread(ran),
        'CPU < 1 ms': Math.max(...ran) < 1 ? 'yes' : 'no',
        'loop gap max, 404s / scrapes (ms)': `${quiet.maxMs.toFixed(2)} / ${scraped.maxMs.toFixed(2)}`,
      },
    ]);
  } finally {
    await svc.close();
    await drop();
  }
}
