import type { buildConnector } from 'undici';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { serviceUrls } from '../catalogue.js';
import { createLogger } from '../logger.js';
import { buildSnapshot } from '../snapshot/index.js';
import type { ChangeEvent, Published, Snapshot } from '../snapshot/types.js';
import { openStore, type Store } from '../store/index.js';
import { startHub, topicPaths, type Hub } from './hub.js';

const urls = serviceUrls('https://reviews.example.com');
const TOPIC = urls.atomFeed;
const CALLBACK = 'https://subscriber.example/cb';
const HOUR = 3_600_000;

function snapshotAt(version: number, title: string): Snapshot {
  return buildSnapshot(
    {
      state: { version, changedAt: '2030-01-01T00:00:00.000Z' },
      business: null,
      reviews: [
        JSON.stringify({
          id: `r${version}`,
          name: title,
          date: '2030-01-01',
          datePublished: '2030-01-01T00:00:00Z',
          dateModified: '2030-01-01T00:00:00Z',
          reviewRating: { ratingValue: 5 },
          author: { name: 'A' },
          reviewBody: title,
          source: 'google',
          mentions: { technicians: [], services: [] },
        }),
      ],
    },
    {
      urls,
      hub: true,
      responseCache: { maxEntries: 10, maxBytes: 1_000_000 },
      insights: '{}',
    },
  );
}

/** A publisher the test drives by hand. */
function manualPublisher(first: Snapshot) {
  let current = first;
  const listeners = new Set<(e: ChangeEvent) => void>();
  const published: Published = {
    current: () => current,
    onChange(l) {
      listeners.add(l);
      return () => listeners.delete(l);
    },
  };
  return {
    published,
    publish(next: Snapshot) {
      current = next;
      for (const l of listeners)
        l({ version: next.state.version, changed: ['/feed.xml'], snapshot: next });
    },
  };
}

let store: Store;
let hub: Hub | null;
let now: number;
const clock = { now: () => now };
const connects: buildConnector.Options[] = [];
const failingConnector: buildConnector.connector = (opts, cb) => {
  connects.push(opts);
  cb(new Error('subscriber unreachable'), null);
};

beforeEach(() => {
  store = openStore('sqlite::memory:');
  now = Date.parse('2030-01-01T00:00:00Z');
  connects.length = 0;
  hub = null;
});
afterEach(async () => {
  await hub?.stop();
  await store.close();
});

async function start(
  first: Snapshot,
  publisher = manualPublisher(first),
  websub: Store['websub'] = store.websub,
) {
  hub = await startHub({
    store: websub,
    rates: store.rates,
    published: publisher.published,
    urls,
    config: {
      callbackAllowCidrs: [],
      rateLimitPerMin: 60,
      timeoutMs: 1_000,
      retryDelaysMs: [1_000, 5_000],
      concurrency: 4,
      hostConcurrency: 2,
      maxSubscriptionsPerHost: 10,
      lease: { minSeconds: 3600, defaultSeconds: 864_000, maxSeconds: 2_592_000 },
    },
    pollMs: 60_000, // the test drives the hub with tick(), on its own clock
    logger: createLogger('silent'),
    clock,
    resolver: async () => ['93.184.216.34'],
    connect: failingConnector,
  });
  return publisher;
}

async function settle(): Promise<void> {
  // Let the attempts started by tick() finish and record their outcome.
  for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
  await hub!.tick();
  for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
}

/** The test's subscriber, subscribed for an hour from now. */
function subscribeForAnHour(): Promise<void> {
  return store.websub.putSubscription(
    {
      topic: TOPIC,
      callback: CALLBACK,
      callbackHost: 'subscriber.example',
      secret: null,
      leaseSeconds: 3600,
      expiresAt: now + HOUR,
    },
    now,
  );
}

describe('the hub on an injected clock', () => {
  it('removes a subscription once its lease has ended, not before', async () => {
    await start(await snapshotAt(1, 'one'));
    await subscribeForAnHour();
    now += HOUR - 1;
    await hub!.tick();
    expect(await store.websub.getSubscription(TOPIC, CALLBACK)).not.toBeNull();
    now += 1_000; // the sweep runs at most once a second
    await hub!.tick();
    expect(await store.websub.getSubscription(TOPIC, CALLBACK)).toBeNull();
  });

  it('retries a failed delivery after each configured delay, then counts one failure', async () => {
    const publisher = await start(await snapshotAt(1, 'one'));
    await store.websub.putSubscription(
      {
        topic: TOPIC,
        callback: CALLBACK,
        callbackHost: 'subscriber.example',
        secret: 'k',
        leaseSeconds: 864_000,
        expiresAt: now + 240 * HOUR,
      },
      now,
    );
    publisher.publish(await snapshotAt(2, 'two'));
    const started = now;
    await waitFor(async () => connects.length === 1);
    await waitFor(async () => (await store.websub.listPendingDeliveries())[0]?.attempts === 1);
    expect((await store.websub.listPendingDeliveries())[0]).toMatchObject({
      dueAt: started + 1_000,
      claimedBy: null,
    });
    now += 999;
    await settle();
    expect(connects).toHaveLength(1); // not due yet
    now += 1;
    await hub!.tick();
    await waitFor(async () => (await store.websub.listPendingDeliveries())[0]?.attempts === 2);
    expect((await store.websub.listPendingDeliveries())[0]!.dueAt).toBe(now + 5_000);
    now += 5_000;
    await hub!.tick();
    await waitFor(async () => (await store.websub.listPendingDeliveries()).length === 0);
    expect(connects).toHaveLength(3);
    expect(
      connects.every((c) => c.hostname === '93.184.216.34' && c.host === 'subscriber.example'),
    ).toBe(true);
    expect((await store.websub.getSubscription(TOPIC, CALLBACK))?.failures).toBe(1);
  });

  it('queues the deliveries of a change again once the store is back, if it was away just then', async () => {
    let away = false;
    const websub = new Proxy(store.websub, {
      get(target, name, receiver) {
        if (name === 'announce' && away) return () => Promise.reject(new Error('store away'));
        return Reflect.get(target, name, receiver) as unknown;
      },
    });
    const publisher = await start(await snapshotAt(1, 'one'), undefined, websub);
    await subscribeForAnHour();
    away = true;
    publisher.publish(await snapshotAt(2, 'two'));
    for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
    // While the store is away, the maintenance fails too (and is logged, once a minute).
    await expect(hub!.tick()).rejects.toThrow('store away');
    expect(await store.websub.listPendingDeliveries()).toHaveLength(0);
    away = false;
    await hub!.tick();
    expect((await store.websub.listTopics()).find((t) => t.topic === TOPIC)?.version).toBe(2);
    await waitFor(async () => connects.length === 1);
  });

  it('queues deliveries for a change made while no hub ran, at start', async () => {
    await store.websub.announce(
      TOPIC,
      1,
      (await snapshotAt(1, 'one')).representations.get('/feed.xml')!.etag,
      now,
    );
    await subscribeForAnHour();
    await start(await snapshotAt(2, 'two'));
    expect((await store.websub.listTopics()).find((t) => t.topic === TOPIC)?.version).toBe(2);
    await waitFor(async () => connects.length === 1);
  });
});

async function waitFor(check: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 2_000; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 5));
  }
  throw new Error('condition never held');
}

describe('the topics', () => {
  it('are the three of the contract, the whole dataset included (INTERFACE.md, Events)', () => {
    expect([...topicPaths(urls)].sort()).toEqual([
      ['https://reviews.example.com/api/feed.json', '/api/feed.json'],
      ['https://reviews.example.com/feed.xml', '/feed.xml'],
      ['https://reviews.example.com/reviews.json', '/reviews.json'],
    ]);
  });
});
