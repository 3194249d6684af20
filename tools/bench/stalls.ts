/**
 * `npm run bench -- stalls`: does the service keep answering while it works?
 *
 * 1. Import under load: the service runs on the bundled sample store; a file of BENCH_IMPORT_COUNT
 *    generated reviews (default 100,000) is imported by the real command in another process while
 *    `/healthz` and a cached search are polled every 100 ms, and requests that touch the store
 *    (MCP `initialize`, `tools/call` on a session, `logging/setLevel`, a hub subscription request)
 *    every 100 to 250 ms. Reported: p99 and max of each, the
 *    service's event-loop delay (monitorEventLoopDelay in the service process), SQLITE_BUSY lines
 *    in its log, the time from the import's commit to the new version being served, and RSS.
 * 2. Requests at that size: six parallel `GET /api/reviews/since/0001-01-01` (the whole dataset,
 *    streamed), an MCP read of the `reviews.json` resource, text searches, a one-review import
 *    and its rebuild, each under the event-loop monitor; RSS over one-review versions; RSS while
 *    clients that never read a streamed since result stay connected across versions.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateSample, runImport } from './commands.js';
import { health, memoryOf, PeakRss, resetPeak, table } from './harness.js';
import { poller, storeProbes, type ProbeSummary } from './probes.js';
import { memoryOverVersions, requestsAtSize, slowReaders } from './stalls-at-size.js';
import {
  describeStalls,
  startWatchedService,
  type LoopDelay,
  type WatchedService,
} from './watched-service.js';

const ms = (n: number) => `${Math.round(n)} ms`;

/** The service's RSS once the insights have followed and the build worker is done (20 s on). */
async function settledRss(svc: WatchedService): Promise<number> {
  await new Promise((r) => setTimeout(r, 20_000));
  return memoryOf(svc.child.pid!).rssMB;
}

/** What the import under load measured (times in ms). */
interface ImportUnderLoad {
  healthz: ProbeSummary;
  search: ProbeSummary;
  /** The store probes' rows, as `storeProbes` gives them. */
  probed: { measure: string; value: string }[];
  loop: LoopDelay;
  /** When the import committed (epoch milliseconds), for the stalls' times. */
  committedAt: number;
  busy: number;
  importMs: number;
  servedMs: number;
  reviewsAfter: number;
  /** Whether the peak RSS could be reset before the import (else it is the peak since start). */
  peakKnown: boolean;
}

/**
 * Imports `file` with the real command while `/healthz`, a cached search and the store probes are
 * polled, until the new version is served and 5 s more (the insights follow, the old version is
 * collected); throws if the import fails.
 */
async function importWhileServing(
  svc: WatchedService,
  file: string,
  databaseUrl: string,
  before: { dataVersion: number },
): Promise<ImportUnderLoad> {
  const peakKnown = resetPeak(svc.child.pid!);
  await fetch(`${svc.url}/api/reviews/search?rating=5&limit=20`); // cached from now on
  await svc.loop();
  const healthz = poller(`${svc.url}/healthz`, 100);
  const search = poller(`${svc.url}/api/reviews/search?rating=5&limit=20`, 100);
  const probes = await storeProbes(svc.url);
  const importStarted = performance.now();
  const code = await runImport(file, databaseUrl);
  const committed = performance.now();
  const committedAt = Date.now();
  if (code !== 0) throw new Error(`the import exited with ${code}`);
  let after = await health(svc.url);
  while (after.dataVersion === before.dataVersion) {
    await new Promise((r) => setTimeout(r, 20));
    after = await health(svc.url);
  }
  const served = performance.now();
  // Keep polling a little after the swap (the insights follow, the old version is collected).
  await new Promise((r) => setTimeout(r, 5_000));
  return {
    healthz: await healthz.stop(),
    search: await search.stop(),
    probed: await probes.stop(),
    loop: await svc.loop(),
    committedAt,
    busy: svc.log.filter((l) => l.includes('SQLITE_BUSY')).length,
    importMs: committed - importStarted,
    servedMs: served - committed,
    reviewsAfter: after.reviews,
    peakKnown,
  };
}

/**
 * The import's table: the probes, the event loop, the import's times, and the service's RSS
 * (`rss`: before / peak during the import, and settled after it / peak while settling, as text).
 */
function importTable(
  count: number,
  r: ImportUnderLoad,
  rss: { during: string; settled: string },
): string[] {
  return [
    `### Import of ${count.toLocaleString('en-US')} reviews while serving\n`,
    table([
      {
        measure: '`/healthz` every 100 ms: p99 / max',
        value: `${ms(r.healthz.p99)} / ${ms(r.healthz.max)} (${r.healthz.count} requests, ${r.healthz.errors} errors)`,
      },
      {
        measure: 'cached search every 100 ms: p99 / max',
        value: `${ms(r.search.p99)} / ${ms(r.search.max)} (${r.search.count} requests, ${r.search.errors} errors)`,
      },
      ...r.probed,
      {
        measure: 'service event-loop delay: max / p99',
        value: `${ms(r.loop.maxMs)} / ${ms(r.loop.p99Ms)}`,
      },
      {
        measure: 'stalls over 50 ms (ran / waited for a core / gc, ms; when)',
        value: describeStalls(r.loop.stalls, { name: 'commit', at: r.committedAt }),
      },
      { measure: 'SQLITE_BUSY lines in the service log', value: r.busy },
      { measure: 'import (command start to commit)', value: ms(r.importMs) },
      { measure: 'commit to the new version served', value: ms(r.servedMs) },
      { measure: 'reviews served after', value: r.reviewsAfter },
      { measure: 'service RSS before the import / peak during it', value: rss.during },
      {
        measure: 'service RSS 20 s after the new version (settled) / peak in those 20 s',
        value: rss.settled,
      },
    ]),
    '',
  ];
}

/** The service's RSS 20 s on and its peak in those 20 s, as `settled MB / peak MB`. */
async function settledWithPeak(svc: WatchedService, peaks: PeakRss): Promise<string> {
  const known = resetPeak(svc.child.pid!);
  const settled = await settledRss(svc);
  return `${settled} MB / ${peaks.note()} MB${known ? '' : ' (since start)'}`;
}

/**
 * The service's limits for the stalls benchmark: the store probes open sessions and hub requests
 * faster than the default limits allow; the hub's verification GETs to 127.0.0.1:9 fail at once
 * (nothing listens there).
 */
const STALLS_ENV = {
  MCP_INITIALIZE_PER_MIN: '1000000',
  WEBSUB_RATE_LIMIT_PER_MIN: '1000000',
  WEBSUB_MAX_SUBSCRIPTIONS_PER_HOST: '10000000',
  WEBSUB_CALLBACK_ALLOW_CIDRS: '127.0.0.0/8',
};

/**
 * The stalls benchmark (see the top of this file): the import under load, then requests, versions
 * and slow readers at the imported size, and the service's settled RSS at the end.
 */
export async function benchStalls(): Promise<string> {
  const count = Number(process.env.BENCH_IMPORT_COUNT ?? 100_000);
  const dir = mkdtempSync(join(tmpdir(), 'bench-stalls-'));
  const databaseUrl = `sqlite:${join(dir, 'reviews.db')}`;
  const file = join(dir, 'big.json');
  const out: string[] = [];
  try {
    await generateSample(count, file);
    const svc = await startWatchedService(databaseUrl, STALLS_ENV);
    try {
      const before = await health(svc.url);
      const rssBefore = memoryOf(svc.child.pid!).rssMB;
      // Peaks are per phase (each reset before it); the run's is the largest of them.
      const peaks = new PeakRss(svc.child.pid!);
      const imported = await importWhileServing(svc, file, databaseUrl, before);
      const rss = {
        during: `${rssBefore} MB / ${peaks.note()} MB${imported.peakKnown ? '' : ' (since start)'}`,
        settled: await settledWithPeak(svc, peaks),
      };
      out.push(...importTable(count, imported, rss));

      const small = join(dir, 'one.csv');
      const rows = await requestsAtSize(svc, peaks, small, databaseUrl);
      out.push(
        `### Requests at ${imported.reviewsAfter.toLocaleString('en-US')} reviews\n`,
        table(rows),
        '',
      );
      out.push(await memoryOverVersions(svc, peaks, small, databaseUrl), '');
      out.push(await slowReaders(svc, databaseUrl), '');
      const settled = await settledRss(svc);
      peaks.note();
      out.push(
        `Service RSS at the end, settled 20 s: ${settled} MB (peak over the run ${peaks.run} MB).`,
        '',
      );
    } finally {
      svc.child.kill('SIGTERM');
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return out.join('\n');
}
