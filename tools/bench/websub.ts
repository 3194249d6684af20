import { fork } from 'node:child_process';
import { join } from 'node:path';
import { Business } from '../../src/domain/business.js';
import { ReviewSource, type ReviewSourceInput } from '../../src/domain/review.js';
import { ingest } from '../../src/import/ingest.js';
import { openStore, type Store } from '../../src/store/index.js';
import { benchDatabase, type Engine } from './engines.js';
import { memoryOf, ROOT, startService, type LogEntry } from './harness.js';
import { createTestCa } from './test-ca.js';

const BASE_URL = 'https://reviews.example.com';
const TOPIC = `${BASE_URL}/api/feed.json`;
const HOSTS = ['127.0.0.1', '127.0.0.2', '127.0.0.3', '127.0.0.4'];

interface Report {
  /** Deliveries received. */
  count: number;
  /** Callbacks (path and query) that received at least one. */
  distinct: number;
  /** Deliveries to a callback that had received one already. */
  duplicates: number;
  lastAt: number;
  bytes: number;
}

function review(i: number): ReviewSourceInput {
  return {
    source: 'google',
    sourceReviewId: `bench-${i}`,
    reviewRating: { ratingValue: (i % 5) + 1 },
    reviewBody: `Review number ${i}: the service advisor explained the brake job and the price held.`,
    author: { name: `Customer ${i}` },
    datePublished: new Date(Date.parse('2024-01-01T12:00:00Z') + i * 3_600_000).toISOString(),
  };
}

async function seed(store: Store, subscribers: number, ports: Record<string, number>) {
  await ingest(store, {
    business: Business.parse({
      id: 'bench-motors',
      name: 'Bench Motors',
      url: 'https://bench-motors.example.com/',
      address: {
        streetAddress: '1 Main St',
        addressLocality: 'Springfield',
        addressRegion: 'IL',
        postalCode: '62701',
        addressCountry: 'US',
      },
      timeZone: 'America/Chicago',
      staff: [],
      services: [],
    }),
    reviews: Array.from({ length: 500 }, (_, i) => ReviewSource.parse(review(i))),
  });
  const expiresAt = Date.now() + 86_400_000;
  for (let i = 0; i < subscribers; i++) {
    const host = HOSTS[i % HOSTS.length]!;
    await store.websub.putSubscription(
      {
        topic: TOPIC,
        callback: `https://${host}:${ports[host]}/s/${i}?n=${i}`,
        callbackHost: host,
        secret: i % 2 === 0 ? `secret-${i}` : null,
        leaseSeconds: 86_400,
        expiresAt,
      },
      Date.now(),
    );
  }
}

/** The deliveries an instance says it made (its 'websub deliveries made' lines). */
const madeBy = (logs: readonly LogEntry[]): number =>
  logs
    .filter((e) => e.msg === 'websub deliveries made')
    .reduce((n, e) => n + (e.delivered as number), 0);

/**
 * Starts `instances` instances of the service on the store, the subscriber servers' hosts allowed
 * as callbacks: each instance, and its log (its count of deliveries is an info line).
 */
async function startInstances(
  instances: number,
  databaseUrl: string,
  caPath: string,
  subscribers: number,
) {
  const services: Awaited<ReturnType<typeof startService>>[] = [];
  const logs: LogEntry[][] = [];
  for (let i = 0; i < instances; i++) {
    logs.push([]);
    services.push(
      await startService(
        {
          DATABASE_URL: databaseUrl,
          BASE_URL,
          NODE_EXTRA_CA_CERTS: caPath,
          WEBSUB_CALLBACK_ALLOW_CIDRS: '127.0.0.0/8',
          WEBSUB_MAX_SUBSCRIPTIONS_PER_HOST: String(subscribers),
          // Each instance's count of deliveries is an info line (one a second while delivering).
          LOG_LEVEL: 'info',
        },
        { logs: logs[i]! },
      ),
    );
  }
  return { services, logs };
}

/**
 * Waits until every one of `subscribers` callbacks received a delivery (or the deadline), noting
 * when the hub first queued the topic at `version` (0 if not seen).
 */
async function awaitEveryCallback(
  store: Store,
  latest: () => Report,
  subscribers: number,
  version: number,
  deadline: number,
): Promise<number> {
  let queued = 0;
  while (latest().distinct < subscribers && Date.now() < deadline) {
    if (!queued) {
      const topic = (await store.websub.listTopics()).find((t) => t.topic === TOPIC);
      if (topic && topic.version >= version) queued = Date.now();
    }
    await new Promise((r) => setTimeout(r, 20));
  }
  return queued;
}

/**
 * Waits until the instances' logs count every delivery the subscriber servers received and no
 * delivery arrived in the last 200 ms, for at most 5 s.
 */
async function awaitCounted(logs: readonly LogEntry[][], latest: () => Report): Promise<void> {
  // The instances log their counts within a second; the subscriber reports every 100 ms.
  const counted = Date.now() + 5_000;
  while (
    (logs.reduce((n, l) => n + madeBy(l), 0) < latest().count ||
      latest().lastAt > Date.now() - 200) &&
    Date.now() < counted
  )
    await new Promise((r) => setTimeout(r, 50));
}

/**
 * Measures the time from a committed change to the last delivery for `subscribers` subscriptions
 * to the JSON Feed topic (half of them with a secret), spread over four HTTPS subscriber servers
 * on loopback in another process, with the hub's default concurrency; and the hub's memory. It
 * waits until every callback received one delivery, counts the callbacks that received more, and
 * each instance's share (from its log).
 */
export async function benchWebSub(
  subscribers: number,
  engine: Engine = 'sqlite',
  instances = 1,
): Promise<Record<string, string | number>> {
  const db = await benchDatabase(engine, `websub-${subscribers}`);
  const dir = db.dir;
  const ca = createTestCa(dir);
  const databaseUrl = db.databaseUrl;
  const child = fork(
    join(ROOT, 'dist/tools/bench/websub-subscriber.js'),
    [join(dir, 'server.crt'), join(dir, 'server.key'), HOSTS.join(','), String(subscribers)],
    { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] },
  );
  let latest: Report = { count: 0, distinct: 0, duplicates: 0, lastAt: 0, bytes: 0 };
  const ports = await new Promise<Record<string, number>>((resolve) =>
    child.on('message', (m: { ports?: Record<string, number> } & Report) => {
      if (m.ports) resolve(m.ports);
      else latest = m;
    }),
  );
  const store = openStore(databaseUrl);
  await seed(store, subscribers, ports);
  const { services, logs } = await startInstances(instances, databaseUrl, ca.caPath, subscribers);
  const svc = services[0]!;
  try {
    while ((await store.websub.listTopics()).length < 3)
      await new Promise((r) => setTimeout(r, 50));
    const before = memoryOf(svc.child.pid!);
    let peak = before.rssMB;
    const sampler = setInterval(() => {
      peak = Math.max(peak, memoryOf(svc.child.pid!).rssMB);
    }, 50);
    const result = await ingest(store, { reviews: [ReviewSource.parse(review(10_000))] });
    const committed = Date.now();
    const deadline = committed + 120_000;
    const version = result.state!.version;
    const queued = await awaitEveryCallback(store, () => latest, subscribers, version, deadline);
    clearInterval(sampler);
    // The last answers may still be on their way back: wait until the hub recorded every outcome.
    while ((await store.websub.listPendingDeliveries()).length > 0 && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 20));
    const drained = Date.now();
    await awaitCounted(logs, () => latest);
    return {
      engine,
      instances,
      subscribers,
      delivered: latest.count,
      'callbacks reached': latest.distinct,
      'callbacks reached twice': latest.duplicates,
      'made by each instance': logs.map(madeBy).join(' / '),
      'change → last delivery (s)': ((latest.lastAt - committed) / 1000).toFixed(2),
      'of which change → queued (s)': queued ? ((queued - committed) / 1000).toFixed(2) : '?',
      'MB delivered': Math.round(latest.bytes / 1024 / 1024),
      'hub RSS before (MB, first instance)': before.rssMB,
      'hub RSS peak during (MB, first instance)': peak,
      'queue drained (s)': ((drained - committed) / 1000).toFixed(2),
    };
  } finally {
    for (const s of services) s.child.kill('SIGKILL');
    child.kill();
    await store.close();
    await new Promise((r) => setTimeout(r, 200));
    await db.drop();
  }
}
