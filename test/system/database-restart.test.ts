/**
 * Two instances on PostgreSQL whose server is stopped (`pg_ctl stop -m immediate`, as a crash)
 * at several points around a commit (before, during and after the instances build it) and
 * started again: each time, both publish the change made after the restart within seconds, say
 * meanwhile that their data is stale, and the hub delivers that change once. Regression test of
 * the audit's finding: a build worker started during the outage kept its failed store for good,
 * and the instance served the old version (with /healthz 200) until restarted.
 *
 * The server is this file's own cluster: stopping the run's shared one would fail the other
 * system test files running meanwhile. The store is large enough (as the audit's, 21,800
 * reviews, each text its own) that the build worker is replaced between versions
 * (`RECYCLE_ABOVE_BYTES`), so a commit's build starts a fresh worker, which opens its store while
 * the server goes away.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ReviewSource, type ReviewSourceInput } from '../../src/domain/review.js';
import { ingest } from '../../src/import/ingest.js';
import { startPostgresCluster, type PostgresCluster } from '../../tools/postgres-cluster.js';
import {
  freshReview,
  startChildService,
  waitUntil,
  type ChildService,
} from '../helpers/child-service.js';
import { testBusiness } from '../helpers/fixtures.js';
import { seedStore } from '../helpers/service.js';
import { startWebSubWorld, TOPICS, type WebSubWorld } from '../helpers/websub.js';

const REVIEWS = 21_800;
/** How long after a commit the server is stopped. */
const DELAYS_MS = [0, 100, 300, 700, 1200];
/** Generous: a build of this store takes seconds on a busy machine. */
const PUBLISH_WITHIN_MS = 30_000;
const ENV = { WEBSUB_TIMEOUT_MS: '2000' };
const CALLBACK = '/restarts';

let cluster: PostgresCluster;
let w: WebSubWorld;
let b: ChildService;

/** Reviews whose texts all differ (the insights analyse each), dated before the fresh ones. */
function distinctReviews(count: number): ReviewSourceInput[] {
  const start = Date.parse('2020-01-01T12:00:00Z');
  return Array.from({ length: count }, (_, i) => ({
    source: 'google',
    sourceReviewId: `restart-${i}`,
    reviewRating: { ratingValue: 1 + (i % 5) },
    reviewBody: `The service was ${i % 2 ? 'quick' : 'slow'} and the price fair, visit ${i}.`,
    author: { name: `Customer ${i}` },
    datePublished: new Date(start + i * 3_600_000).toISOString(),
  }));
}

beforeAll(async () => {
  // Durable, as in production: with synchronous commit off (the other tests' setting), a crash
  // loses the last commits the server acknowledged, here a subscription's activation, and the
  // hub rightly sends a subscriber nothing published before it subscribed.
  cluster = await startPostgresCluster({
    purpose: 'test/system/database-restart.test.ts',
    durable: true,
  });
  const admin = new pg.Client({ connectionString: cluster.adminUrl });
  await admin.connect();
  await admin.query('CREATE DATABASE restarts');
  await admin.end();
  const databaseUrl = cluster.adminUrl.replace(/\/postgres$/, '/restarts');
  await seedStore(databaseUrl, testBusiness(), distinctReviews(REVIEWS));
  w = await startWebSubWorld(ENV, { databaseUrl });
  b = await startChildService({ databaseUrl, caPath: w.ca.caPath, env: ENV });
}, 240_000);

afterAll(async () => {
  await b?.stop();
  await w?.close();
  cluster?.stop();
});

interface Health {
  status: string;
  dataVersion: number;
  stale?: { since: string; reason: string; newerVersion?: number };
}

async function health(i: ChildService): Promise<Health | null> {
  try {
    return (await (await fetch(`${i.url}/healthz`)).json()) as Health;
  } catch {
    return null;
  }
}

/**
 * Commits one fresh review through the test's own store (retried while the server starts);
 * `text` is its body, which the feed shows.
 */
async function commit(): Promise<{ text: string; version: number }> {
  const review = freshReview();
  const parsed = ReviewSource.parse(review);
  const result = await waitUntil(
    () => ingest(w.store, { reviews: [parsed] }).catch(() => null),
    'the commit',
  );
  if (!result.state) throw new Error('the fresh review changed nothing');
  return { text: review.reviewBody as string, version: result.state.version };
}

const noPendingWork = () => w.idle();

describe('two instances whose PostgreSQL server is stopped around a commit', () => {
  it('both publish the next change within seconds of the restart, and the hub delivers it once', async () => {
    await w.subscribeActive(CALLBACK, TOPICS.atom);
    const instances = [w.svc, b];
    for (const delay of DELAYS_MS) {
      await commit();
      await new Promise((resolve) => setTimeout(resolve, delay));
      await cluster.kill();
      // Meanwhile each serves what it has, and says since when it could not refresh it.
      await waitUntil(
        async () => (await Promise.all(instances.map(health))).every((h) => h?.stale?.since),
        `both instances to say they are stale (stopped ${delay} ms after a commit)`,
      );
      await cluster.start();

      const change = await commit();
      const fresh = await waitUntil(
        async () => {
          const all = await Promise.all(instances.map(health));
          return all.every((h) => h?.dataVersion === change.version && !h.stale) && all;
        },
        `both instances to publish version ${change.version} (stopped ${delay} ms after a commit)`,
        PUBLISH_WITHIN_MS,
      );
      expect(fresh.map((h) => h!.status)).toEqual(['ok', 'ok']);
      // The subscriber hears of the change once, though both instances published it.
      await waitUntil(
        () => w.sub.deliveries.some((d) => d.body.includes(change.text)),
        `the delivery of version ${change.version}`,
        PUBLISH_WITHIN_MS,
      );
      await waitUntil(noPendingWork, 'the hub to be idle');
      const heard = w.sub.deliveries.filter(
        (d) => d.path === CALLBACK && d.body.includes(change.text),
      );
      expect(heard, `deliveries of version ${change.version}`).toHaveLength(1);
    }
  }, 600_000);
});
