import { spawnSync, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { ReviewSource } from '../../src/domain/review.js';
import { ingest } from '../../src/import/ingest.js';
import { analyzeReview, loadModel } from '../../src/insights/absa/index.js';
import { createInsightsEngine } from '../../src/insights/engine.js';
import { orderReviews } from '../../src/reviews/order.js';
import { openStore } from '../../src/store/index.js';
import { memoryOf, ROOT, startService, table } from './harness.js';
import { benchStore } from './http.js';

async function insightsInput(databaseUrl: string) {
  const store = openStore(databaseUrl);
  const dataset = await store.readDataset();
  await store.close();
  return {
    reviews: orderReviews(dataset.reviews).map((p) => p.review),
    business: dataset.business,
    changedAt: dataset.state.changedAt,
  };
}

/** Deletes every stored analysis, so the next start analyses every text again. */
async function forgetAnalyses(databaseUrl: string): Promise<void> {
  const store = openStore(databaseUrl);
  await store.analyses.retain(new Set());
  await store.close();
}

/** Stops a service process and waits for it to exit. */
async function stop(child: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

/**
 * The dealership model's analysis alone, in milliseconds a review: every review body analysed in
 * turn, the fastest of `rounds` rounds (the rest of the insights computation left out).
 */
function analysisPerReview(bodies: readonly string[], rounds = 3): number {
  const model = loadModel('dealership');
  let fastest = Infinity;
  for (let round = 0; round < rounds; round++) {
    const t = performance.now();
    for (const body of bodies) analyzeReview(model, body);
    fastest = Math.min(fastest, performance.now() - t);
  }
  return fastest / bodies.length;
}

async function addOneReview(databaseUrl: string): Promise<void> {
  const store = openStore(databaseUrl);
  await ingest(store, {
    reviews: [
      ReviewSource.parse({
        source: 'google',
        sourceReviewId: `bench-insights-${Date.now()}`,
        reviewRating: { ratingValue: 2 },
        reviewBody:
          'Waited three hours for an oil change. The advisor was friendly but nobody called me back.',
        author: { name: 'Bench' },
        datePublished: new Date().toISOString(),
      }),
    ],
  });
  await store.close();
}

/**
 * The insights engine in this process: the full computation from cold (every text analysed), the
 * dealership model's analysis alone (ms a review), then 5 recomputations, each after an import
 * added one review (only that text analysed), in ms.
 */
async function computeTimes(
  databaseUrl: string,
): Promise<{ cold: number; analysis: number; oneMore: number[] }> {
  const engine = createInsightsEngine();
  let input = await insightsInput(databaseUrl);
  let t = performance.now();
  engine.compute(input);
  const cold = performance.now() - t;
  const analysis = analysisPerReview(input.reviews.flatMap((r) => r.reviewBody ?? []));
  const oneMore: number[] = [];
  for (let round = 0; round < 5; round++) {
    await addOneReview(databaseUrl);
    input = await insightsInput(databaseUrl);
    t = performance.now();
    engine.compute(input);
    oneMore.push(Math.round(performance.now() - t));
  }
  return { cold, analysis, oneMore };
}

/**
 * `npm run insights` (the operator's report), twice: nothing stored yet, then the analyses it
 * stored; each run's time in ms.
 */
function reportTimes(databaseUrl: string): number[] {
  const report: number[] = [];
  for (let run = 0; run < 2; run++) {
    const t = performance.now();
    const cli = spawnSync(process.execPath, [join(ROOT, 'dist/src/bin.js'), 'insights'], {
      env: { ...process.env, DATABASE_URL: databaseUrl },
      encoding: 'utf8',
    });
    if (cli.status !== 0) throw new Error(`npm run insights failed: ${cli.stderr}`);
    report.push(Math.round(performance.now() - t));
  }
  return report;
}

/** The ETag of the service's `/insights.json` (a HEAD). */
async function insightsEtag(url: string): Promise<string | null> {
  return (await fetch(`${url}/insights.json`, { method: 'HEAD' })).headers.get('etag');
}

/**
 * The service (no analyses stored): its first start to ready (every text analysed, the analyses
 * stored), an import's commit to its new `/insights.json` served, and a restart to ready (the
 * analyses read from the store), in ms.
 */
async function serviceTimes(
  databaseUrl: string,
): Promise<{ firstStart: number; served: number; restart: number }> {
  let t = performance.now();
  let svc = await startService({ DATABASE_URL: databaseUrl });
  const firstStart = performance.now() - t;
  let served: number;
  try {
    const before = await insightsEtag(svc.url);
    t = performance.now();
    await addOneReview(databaseUrl);
    for (;;) {
      const etag = await insightsEtag(svc.url);
      if (etag !== before) break;
      await new Promise((r) => setTimeout(r, 10));
    }
    served = performance.now() - t;
  } finally {
    await stop(svc.child);
  }
  t = performance.now();
  svc = await startService({ DATABASE_URL: databaseUrl });
  const restart = performance.now() - t;
  await stop(svc.child);
  return { firstStart, served, restart };
}

/**
 * Insights speed: the full computation for `count` reviews from cold (every text analysed), the
 * recomputation after an import adds one review (only that text analysed), and, through the
 * running service, the time from that commit to the new /insights.json being served.
 */
export async function benchInsights(count: number): Promise<string> {
  const { databaseUrl, drop } = await benchStore('insights', count);
  try {
    const { cold, analysis, oneMore } = await computeTimes(databaseUrl);
    const report = reportTimes(databaseUrl);
    await forgetAnalyses(databaseUrl);
    // The service's first start analyses every text and stores the analyses; a restart reads them.
    const { firstStart, served, restart } = await serviceTimes(databaseUrl);
    const rows: Record<string, string | number>[] = [
      {
        step: `full insights, cold (${count.toLocaleString('en-US')} reviews analysed)`,
        ms: Math.round(cold),
      },
      {
        step: 'analysis alone, ms a review (every review body, fastest of 3 rounds)',
        ms: analysis.toFixed(3),
      },
      {
        step: 'recompute after an import adds one review (one text analysed), 5 rounds',
        ms: `${oneMore.join(', ')} (median ${[...oneMore].sort((a, b) => a - b)[2]})`,
      },
      {
        step: 'service: import committed -> new /insights.json served (includes the poll interval and the rest of the rebuild)',
        ms: Math.round(served),
      },
      {
        step: '`npm run insights`: first run (every text analysed, analyses stored) / second run',
        ms: `${report[0]} / ${report[1]}`,
      },
      {
        step: 'service: first start to ready (every text analysed, analyses stored)',
        ms: Math.round(firstStart),
      },
      {
        step: 'service: restart to ready (analyses read from the store)',
        ms: Math.round(restart),
      },
    ];
    return [
      `### Insights, ${count.toLocaleString('en-US')} reviews`,
      '',
      table(rows),
      '',
      `bench process RSS ${memoryOf(process.pid).peakMB} MB peak`,
      '',
    ].join('\n');
  } finally {
    await drop();
  }
}
