/**
 * `npm run bench -- websub-fanout`: the cost of a change for the hub when every topic, the whole
 * dataset included, has many subscribers. BENCH_WEBSUB_FANOUT_REVIEWS generated reviews (default
 * 100,000; `/reviews.json` is then about 115 MB), BENCH_WEBSUB_FANOUT_SUBSCRIBERS subscriptions to
 * each of the three topics (default 20; half with a secret, so half the deliveries are signed),
 * on four HTTPS subscriber servers on loopback in another process. One review is committed, and
 * until every callback has its delivery and the queue is empty: `/healthz` probed every 20 ms
 * (p99 and max, over the whole window and split at the first delivery: the rebuild of the new
 * version before it, the fan-out after), and the hub's RSS sampled every 50 ms (growth over its
 * settled RSS before).
 */
import { fork } from 'node:child_process';
import { join } from 'node:path';
import { ReviewSource } from '../../src/domain/review.js';
import { ingest } from '../../src/import/ingest.js';
import { openStore, type Store } from '../../src/store/index.js';
import type { Engine } from './engines.js';
import { memoryOf, ROOT } from './harness.js';
import { benchStore } from './http.js';
import { describeStalls, startWatchedService } from './watched-service.js';
import { createTestCa } from './test-ca.js';

const BASE_URL = 'https://reviews.example.com';
const TOPICS = ['/feed.xml', '/api/feed.json', '/reviews.json'].map((p) => `${BASE_URL}${p}`);
const HOSTS = ['127.0.0.1', '127.0.0.2', '127.0.0.3', '127.0.0.4'];

interface Report {
  count: number;
  distinct: number;
  lastAt: number;
  bytes: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Probes `url` every `everyMs` until stopped, keeping when each probe started and its time. */
function probe(url: string, everyMs: number) {
  const probes: { at: number; ms: number; ok: boolean }[] = [];
  let running = true;
  const done = (async () => {
    while (running) {
      const at = Date.now();
      const started = performance.now();
      const ok = await fetch(url).then(
        async (res) => (await res.arrayBuffer(), res.ok),
        () => false,
      );
      const ms = performance.now() - started;
      probes.push({ at, ms, ok });
      await sleep(Math.max(0, everyMs - ms));
    }
  })();
  return {
    async stop() {
      running = false;
      await done;
      return probes;
    },
  };
}

/** `p99 / max (count)` of the probes that started in [from, to). */
function summary(probes: { at: number; ms: number; ok: boolean }[], from: number, to: number) {
  const times = probes
    .filter((p) => p.at >= from && p.at < to)
    .map((p) => p.ms)
    .sort((a, b) => a - b);
  const errors = probes.filter((p) => p.at >= from && p.at < to && !p.ok).length;
  const p99 = times[Math.floor(times.length * 0.99)] ?? 0;
  const max = times.at(-1) ?? 0;
  return `${p99.toFixed(1)} / ${max.toFixed(1)} (${times.length}, ${errors} errors)`;
}

/**
 * Starts the HTTPS subscriber servers (another process) for `expected` callbacks, with the test
 * CA's certificate in `dir`: the process, each host's port, and its latest report.
 */
async function startSubscribers(dir: string, expected: number) {
  const child = fork(
    join(ROOT, 'dist/tools/bench/websub-subscriber.js'),
    [join(dir, 'server.crt'), join(dir, 'server.key'), HOSTS.join(','), String(expected)],
    { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] },
  );
  let latest: Report = { count: 0, distinct: 0, lastAt: 0, bytes: 0 };
  const ports = await new Promise<Record<string, number>>((resolve) =>
    child.on('message', (m: { ports?: Record<string, number> } & Report) => {
      if (m.ports) resolve(m.ports);
      else latest = m;
    }),
  );
  return { child, ports, latest: () => latest };
}

/**
 * `perTopic` subscriptions to each topic, their callbacks spread over the subscriber servers'
 * hosts, half of them with a secret (their deliveries are signed).
 */
async function subscribe(
  store: Store,
  perTopic: number,
  ports: Record<string, number>,
): Promise<void> {
  const expiresAt = Date.now() + 86_400_000;
  for (const [t, topic] of TOPICS.entries()) {
    for (let i = 0; i < perTopic; i++) {
      const host = HOSTS[i % HOSTS.length]!;
      await store.websub.putSubscription(
        {
          topic,
          callback: `https://${host}:${ports[host]}/t${t}/s${i}`,
          callbackHost: host,
          secret: i % 2 === 0 ? `secret-${t}-${i}` : null,
          leaseSeconds: 86_400,
          expiresAt,
        },
        Date.now(),
      );
    }
  }
}

/** Commits one new review, dated now: every topic changes. */
async function commitOneReview(store: Store): Promise<void> {
  const review = ReviewSource.parse({
    source: 'google',
    sourceReviewId: `fanout-${Date.now()}`,
    reviewRating: { ratingValue: 5 },
    reviewBody: 'The fan-out review: quick oil change, fair price.',
    author: { name: 'Fan Out' },
    datePublished: new Date().toISOString(),
  });
  await ingest(store, { reviews: [review] });
}

/**
 * Waits until every one of `expected` callbacks has its delivery, then until the hub's queue is
 * empty (or 10 minutes from `committed`): when the first delivery arrived (0 if none was seen)
 * and when the queue drained.
 */
async function awaitFanOut(
  store: Store,
  latest: () => Report,
  expected: number,
  committed: number,
): Promise<{ first: number; drained: number }> {
  const deadline = committed + 600_000;
  let first = 0;
  while (latest().distinct < expected && Date.now() < deadline) {
    if (!first && latest().count > 0) first = Date.now();
    await sleep(20);
  }
  while ((await store.websub.listPendingDeliveries()).length > 0 && Date.now() < deadline)
    await sleep(50);
  return { first, drained: Date.now() };
}

/**
 * The hub's cost of one change to every topic with `perTopic` subscribers each (see the top of
 * this file): one row of figures.
 */
export async function benchWebSubFanout(
  reviews: number,
  perTopic: number,
  engine: Engine = 'sqlite',
): Promise<Record<string, string | number>> {
  const db = await benchStore('websub-fanout', reviews, engine);
  const ca = createTestCa(db.dir);
  const expected = perTopic * TOPICS.length;
  const { child, ports, latest } = await startSubscribers(db.dir, expected);
  const store = openStore(db.databaseUrl);
  await subscribe(store, perTopic, ports);
  // With an event-loop monitor: its stalls say whether the thread ran, waited for a core or
  // collected garbage (the probes alone cannot tell a busy loop from a busy machine).
  const svc = await startWatchedService(db.databaseUrl, {
    BASE_URL,
    SAMPLE_DATA: 'off',
    LOG_LEVEL: 'warn',
    NODE_EXTRA_CA_CERTS: ca.caPath,
    WEBSUB_CALLBACK_ALLOW_CIDRS: '127.0.0.0/8',
    // Generous: the measure is the hub's cost, not a deadline on a shared machine.
    WEBSUB_TIMEOUT_MS: '120000',
  });
  try {
    while ((await store.websub.listTopics()).length < TOPICS.length) await sleep(50);
    // Settled: the codings of the large documents follow the first version.
    await sleep(Number(process.env.BENCH_WEBSUB_FANOUT_SETTLE_MS ?? 20_000));
    const before = memoryOf(svc.child.pid!).rssMB;
    const rss: { at: number; mb: number }[] = [];
    const sampler = setInterval(() => {
      rss.push({ at: Date.now(), mb: memoryOf(svc.child.pid!).rssMB });
    }, 50);
    await svc.loop(); // resets the monitor
    const probes = probe(`${svc.url}/healthz`, 20);
    const docBytes = (await (await fetch(`${svc.url}/reviews.json`)).arrayBuffer()).byteLength;
    await commitOneReview(store);
    const committed = Date.now();
    const { first: firstSeen, drained } = await awaitFanOut(store, latest, expected, committed);
    const healthz = await probes.stop();
    const loop = await svc.loop();
    const first = firstSeen || drained;
    clearInterval(sampler);
    const peakOf = (from: number, to: number) =>
      Math.max(before, ...rss.filter((r) => r.at >= from && r.at <= to).map((r) => r.mb));
    const peak = peakOf(committed, drained);
    const atFirst = rss.findLast((r) => r.at <= first)?.mb ?? before;
    const { distinct, bytes, lastAt } = latest();
    return {
      engine,
      reviews,
      'subscribers per topic': perTopic,
      '/reviews.json (MB)': (docBytes / 1024 / 1024).toFixed(1),
      'callbacks reached': `${distinct} / ${expected}`,
      'MB delivered': Math.round(bytes / 1024 / 1024),
      'change → last delivery (s)': ((lastAt - committed) / 1000).toFixed(2),
      'queue drained (s)': ((drained - committed) / 1000).toFixed(2),
      'change → first delivery (s)': ((first - committed) / 1000).toFixed(2),
      '/healthz p99 / max (ms), whole (probes)': summary(healthz, committed, drained),
      '… until the first delivery (rebuild)': summary(healthz, committed, first),
      '… during the fan-out': summary(healthz, first, drained),
      'event loop max (ms)': loop.maxMs.toFixed(0),
      'its stalls over 50 ms': describeStalls(loop.stalls, { name: 'commit', at: committed }),
      'RSS before / peak (MB)': `${before} / ${peak}`,
      'RSS growth (MB)': peak - before,
      '… during the fan-out, over the RSS at its start (MB)': peakOf(first, drained) - atFirst,
    };
  } finally {
    svc.child.kill('SIGKILL');
    child.kill();
    await store.close();
    await sleep(200);
    await db.drop();
  }
}
