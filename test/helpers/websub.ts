import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestCa, type TestCa } from '../../tools/bench/test-ca.js';
import { openStore, type Store } from '../../src/store/index.js';
import {
  freshReview,
  ingestInAnotherProcess,
  postHub,
  startChildService,
  waitUntil,
  type ChildService,
} from './child-service.js';
import { testBusiness, testReviews } from './fixtures.js';
import { seedStore, TEST_BASE_URL } from './service.js';
import { startSubscriber, type TestSubscriber } from './subscriber.js';

export const TOPICS = {
  atom: `${TEST_BASE_URL}/feed.xml`,
  jsonFeed: `${TEST_BASE_URL}/api/feed.json`,
  reviews: `${TEST_BASE_URL}/reviews.json`,
} as const;

/** Everything a WebSub end-to-end suite needs: a CA, a store, a subscriber and the service. */
export interface WebSubWorld {
  dir: string;
  ca: TestCa;
  databaseUrl: string;
  /** The test's own connection to the service's store, to observe hub state. */
  store: Store;
  sub: TestSubscriber;
  svc: ChildService;
  /** Starts the service again (after a crash or stop) with the same settings. */
  restart(env?: Record<string, string>): Promise<void>;
  /** Subscribes `path` (at the subscriber) to `topic`, expecting 202. */
  subscribe(path: string, topic: string, extra?: Record<string, string>): Promise<void>;
  /** Subscribes and waits until the subscription is active. */
  subscribeActive(path: string, topic: string, extra?: Record<string, string>): Promise<void>;
  /** Commits a new review from another process; resolves with the new data version once the hub queued it. */
  change(): Promise<number>;
  /**
   * Whether the hub has no intent and no delivery pending. It reads intents, deliveries, then
   * intents again: an intent becomes deliveries and a failed delivery a (denial) intent, each in
   * one transaction, so a change between two reads shows in one of them.
   */
  idle(): Promise<boolean>;
  /** The current bytes and headers of a topic, as a GET returns them. */
  get(topicPath: string): Promise<{ body: Buffer; contentType: string; link: string }>;
  close(): Promise<void>;
}

/**
 * Builds a WebSub world: fresh CA, seeded store (a SQLite file in its folder, or the empty
 * database at `options.databaseUrl`), HTTPS subscriber, service as a child process.
 */
export async function startWebSubWorld(
  env: Record<string, string> = {},
  options: { databaseUrl?: string } = {},
): Promise<WebSubWorld> {
  const dir = mkdtempSync(join(tmpdir(), 'websub-e2e-'));
  const ca = createTestCa(dir);
  const databaseUrl = options.databaseUrl ?? `sqlite:${join(dir, 'reviews.db')}`;
  await seedStore(databaseUrl, testBusiness(), testReviews(30));
  const store = openStore(databaseUrl);
  const sub = await startSubscriber(ca);
  let svc = await startChildService({ databaseUrl, caPath: ca.caPath, env });
  const world: WebSubWorld = {
    dir,
    ca,
    databaseUrl,
    store,
    sub,
    get svc() {
      return svc;
    },
    async restart(more = {}) {
      svc = await startChildService({ databaseUrl, caPath: ca.caPath, env: { ...env, ...more } });
    },
    async subscribe(path, topic, extra = {}) {
      const res = await postHub(svc.url, {
        'hub.mode': 'subscribe',
        'hub.topic': topic,
        'hub.callback': sub.url(path),
        ...extra,
      });
      if (res.status !== 202) throw new Error(`subscribe answered ${res.status}: ${res.text}`);
    },
    async subscribeActive(path, topic, extra = {}) {
      await world.subscribe(path, topic, extra);
      await waitUntil(() => store.websub.getSubscription(topic, sub.url(path)), 'activation');
    },
    async change() {
      const before = (await store.state()).version;
      if ((await ingestInAnotherProcess(databaseUrl, [freshReview()])) !== 0)
        throw new Error('the import failed');
      const version = before + 1;
      await waitUntil(async () => {
        const topics = await store.websub.listTopics();
        return topics.length === 3 && topics.every((t) => t.version >= version);
      }, 'the hub to notice the change');
      return version;
    },
    async idle() {
      const intents = () => store.websub.countPendingIntents();
      return (
        (await intents()) === 0 &&
        (await store.websub.listPendingDeliveries()).length === 0 &&
        (await intents()) === 0
      );
    },
    async get(topicPath) {
      const res = await fetch(`${svc.url}${topicPath}`, {
        headers: { 'accept-encoding': 'identity' },
      });
      return {
        body: Buffer.from(await res.arrayBuffer()),
        contentType: res.headers.get('content-type') ?? '',
        link: res.headers.get('link') ?? '',
      };
    },
    async close() {
      await svc.stop();
      await sub.close();
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return world;
}
