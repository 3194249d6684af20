/**
 * `npm run bench -- metrics`: how long a Prometheus scrape holds the service's event loop (issue
 * 31: under 1 ms at 100,000 reviews). The service runs in this process over BENCH_METRICS_COUNT
 * reviews (default 100,000) with `METRICS_PORT`, after requests to every kind of route (so the
 * request histogram holds a realistic set of label values); curl, in a process of its own,
 * scrapes it BENCH_METRICS_SCRAPES times (default 200) while a chain of `setImmediate` here
 * records the longest gap between two turns of the loop: the longest task that ran between them.
 * The same chain without scrapes is the baseline.
 */
import { spawn } from 'node:child_process';
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
    const url = `${svc.metricsUrl}/metrics`;
    await curl(url, 5); // warm: the first collection compiles its code
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
        scrapes,
        'scrape bytes': bytes,
        'loop gap max, 404s (ms)': quiet.maxMs.toFixed(2),
        'loop gap p99, scrapes (ms)': scraped.p99Ms.toFixed(2),
        'loop gap max, scrapes (ms)': scraped.maxMs.toFixed(2),
        '< 1 ms': scraped.maxMs < 1 ? 'yes' : 'no',
      },
    ]);
  } finally {
    await svc.close();
    await drop();
  }
}
