/**
 * `npm run bench -- soak`: the service under sustained load with a large import in the middle.
 *
 * The service (built, its own process, the bundled sample store, an event-loop delay monitor in
 * it) is driven for BENCH_SOAK_SECONDS (default 60) by BENCH_SOAK_CONNECTIONS (default 1,000)
 * keep-alive connections of one undici Pool, each a closed loop (a request, its whole answer, the
 * next request) over a mix of the read endpoints and MCP calls. Every tenth loop is an MCP client:
 * it initializes once, then calls tools. BENCH_SOAK_IMPORT_AT seconds in (default 20), the real
 * `dealer-reviews import` of BENCH_IMPORT_COUNT generated reviews (default 100,000) starts as its
 * own process, as `npm run bench -- stalls` does.
 *
 * The mix includes the HTML pages and `/insights.json`; one loop in fifty reads only the heavy
 * bodies, the dataset (`/reviews.json`) and whole since results (streamed). Bodies are read to
 * their end and dropped.
 *
 * An error is any answer but a 2xx or 304, a failed connection, or an MCP answer that is a
 * JSON-RPC error or a tool error. The MCP initialize limit (MCP_INITIALIZE_PER_MIN, 60 per
 * client address) would refuse the hundred clients that all come from 127.0.0.1, so the soak
 * raises it; a 429 (and a 503 for too many streams at once, SINCE_MAX_STREAMS) would still be
 * counted apart, as refusals by design, and is not expected. The read endpoints have no rate
 * limit.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Pool } from 'undici';
import { generateSample, runImport } from './commands.js';
import { health, memoryOf } from './harness.js';
import { SoakLoad } from './soak-load.js';
import {
  soakReport,
  type ImportRun,
  type LoadWindow,
  type SoakFigures,
  type SoakSettings,
} from './soak-report.js';
import { startWatchedService, type WatchedService } from './watched-service.js';

/** The soak's settings, from the environment (see the top of this file). */
function soakSettings(): SoakSettings {
  return {
    seconds: Number(process.env.BENCH_SOAK_SECONDS ?? 60),
    connections: Number(process.env.BENCH_SOAK_CONNECTIONS ?? 1000),
    importAt: Number(process.env.BENCH_SOAK_IMPORT_AT ?? 20),
    count: Number(process.env.BENCH_IMPORT_COUNT ?? 100_000),
  };
}

/**
 * Samples the service while the load runs: its RSS every 500 ms, and every 10 s a window (the
 * load's requests and errors since the last, the event-loop delay max, the RSS max). `stop` closes
 * the last window (if it holds a request) and resolves the windows and the highest RSS sampled (at least `rssStart`).
 */
function sampleService(svc: WatchedService, load: SoakLoad, rssStart: number) {
  const pid = svc.child.pid!;
  const windows: LoadWindow[] = [];
  let windowRss = 0;
  let rssPeakSampled = rssStart;
  const closeWindow = (loopMaxMs: number) => {
    windows.push({
      requests: load.windowRequests,
      errors: load.windowErrors,
      loopMaxMs,
      rssMB: windowRss,
    });
    load.windowRequests = 0;
    load.windowErrors = 0;
    windowRss = 0;
  };
  const rssTimer = setInterval(() => {
    const rss = memoryOf(pid).rssMB;
    rssPeakSampled = Math.max(rssPeakSampled, rss);
    windowRss = Math.max(windowRss, rss);
  }, 500);
  const windowTimer = setInterval(() => {
    void svc.loop().then((loop) => closeWindow(loop.maxMs));
  }, 10_000);
  return {
    async stop(): Promise<{ windows: LoadWindow[]; rssPeakSampled: number }> {
      clearInterval(windowTimer);
      clearInterval(rssTimer);
      // The last window, unless the load ended just as one closed (then it holds nothing).
      const loopMaxMs = (await svc.loop()).maxMs;
      if (load.windowRequests > 0 || load.windowErrors > 0) closeWindow(loopMaxMs);
      return { windows, rssPeakSampled };
    },
  };
}

/** Runs the real import of `file` as its own process `seconds` from now; resolves once it exits. */
function importAfter(seconds: number, file: string, databaseUrl: string): Promise<ImportRun> {
  return new Promise((resolve) => {
    setTimeout(() => {
      const startedAt = performance.now();
      void runImport(file, databaseUrl).then((code) => {
        resolve({ startedAt, endedAt: performance.now(), code });
      });
    }, seconds * 1000);
  });
}

/**
 * The import's version, if the load ended before the service served it: `/healthz` every 100 ms
 * for up to 60 s; when it was first served (`performance.now()`) and its reviews, or null.
 */
async function awaitNewVersion(
  url: string,
  firstVersion: number,
): Promise<{ at: number; reviews: number } | null> {
  for (let i = 0; i < 600; i++) {
    const h = await health(url);
    if (h.dataVersion !== firstVersion) return { at: performance.now(), reviews: h.reviews };
    await new Promise((r) => setTimeout(r, 100));
  }
  return null;
}

/**
 * The soak on a started service: the load for the settings' seconds with the import of `file`
 * during it, then the service once the load is over and 10 s later.
 */
async function soak(
  svc: WatchedService,
  settings: SoakSettings,
  file: string,
  databaseUrl: string,
): Promise<SoakFigures> {
  const { seconds, connections, importAt } = settings;
  const pid = svc.child.pid!;
  const before = await health(svc.url);
  const rssStart = memoryOf(pid).rssMB;
  const ids = (await (await fetch(`${svc.url}/api/reviews/search?limit=20`)).json()) as {
    reviews: { id: string }[];
  };
  const pool = new Pool(svc.url, {
    connections,
    pipelining: 1,
    keepAliveTimeout: 60_000,
    headersTimeout: 60_000,
    bodyTimeout: 60_000,
  });
  const load = new SoakLoad(
    pool,
    before.dataVersion,
    ids.reviews.map((r) => r.id),
  );
  const started = performance.now();
  await svc.loop(); // reset
  const sampler = sampleService(svc, load, rssStart);
  const importing = importAfter(importAt, file, databaseUrl);
  await load.run(connections, started + seconds * 1000);
  const wall = (performance.now() - started) / 1000;
  const { windows, rssPeakSampled } = await sampler.stop();
  const importRun = await importing;
  await pool.close();
  const rssEnd = memoryOf(pid).rssMB;
  const peak = Math.max(memoryOf(pid).peakMB, rssPeakSampled);
  const newVersion = load.newVersion ?? (await awaitNewVersion(svc.url, before.dataVersion));
  await new Promise((r) => setTimeout(r, 10_000));
  const rss = { start: rssStart, peak, end: rssEnd, settled: memoryOf(pid).rssMB };
  return {
    settings,
    started,
    wall,
    tallies: load.tallies,
    importRun,
    newVersion,
    rss,
    windows,
    log: svc.log,
  };
}

/** The soak benchmark (see the top of this file): its report, or a throw if the import failed. */
export async function benchSoak(): Promise<string> {
  const settings = soakSettings();
  const dir = mkdtempSync(join(tmpdir(), 'bench-soak-'));
  const databaseUrl = `sqlite:${join(dir, 'reviews.db')}`;
  const file = join(dir, 'big.json');
  let svc: WatchedService | null = null;
  try {
    await generateSample(settings.count, file);
    svc = await startWatchedService(databaseUrl, {
      MCP_INITIALIZE_PER_MIN: '1000000',
      MALLOC_MMAP_THRESHOLD_: process.env.MALLOC_MMAP_THRESHOLD_ ?? '131072',
    });
    const figures = await soak(svc, settings, file, databaseUrl);
    const report = soakReport(figures);
    if (figures.importRun.code !== 0)
      throw new Error(`${report}\nthe import exited with ${figures.importRun.code}`);
    return report;
  } finally {
    svc?.child.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  }
}
