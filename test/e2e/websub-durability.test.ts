import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  freshReview,
  ingestInAnotherProcess,
  startChildService,
  waitUntil,
} from '../helpers/child-service.js';
import { startWebSubWorld, TOPICS, type WebSubWorld } from '../helpers/websub.js';

let w: WebSubWorld;

// A 1 s request timeout keeps the claim lease short (2 x timeout + 5 s), so the restarted
// instance takes over the crashed one's claims within seconds.
beforeAll(async () => {
  w = await startWebSubWorld({ WEBSUB_TIMEOUT_MS: '1000' });
});
afterAll(() => w.close());

const deliveriesTo = (path: string) => w.sub.deliveries.filter((d) => d.path === path);
const noPendingWork = () => w.idle();

describe('WebSub durability across kill -9', () => {
  it('delivers the latest content after a crash while the delivery was in flight', async () => {
    const path = '/durable/in-flight';
    await w.subscribeActive(path, TOPICS.jsonFeed);
    w.sub.behave(path, { deliver: 'hold' });
    await w.change();
    await waitUntil(() => deliveriesTo(path).length === 1, 'the delivery to start');
    await w.svc.crash();
    w.sub.dropHeld();
    w.sub.behave(path, { deliver: 204 });
    // One more change while no instance runs.
    expect(await ingestInAnotherProcess(w.databaseUrl, [freshReview()])).toBe(0);
    await w.restart();
    await waitUntil(noPendingWork, 'the delivery to resume');
    const got = deliveriesTo(path);
    expect(got.length).toBeGreaterThanOrEqual(2);
    expect(got.at(-1)!.body.equals((await w.get('/api/feed.json')).body)).toBe(true);
    expect(await w.store.websub.getSubscription(TOPICS.jsonFeed, w.sub.url(path))).toMatchObject({
      failures: 0,
    });
  });

  it('delivers a change committed after a crash and before the hub noticed it', async () => {
    const path = '/durable/unnoticed';
    await w.subscribeActive(path, TOPICS.atom);
    await w.svc.crash();
    expect(await ingestInAnotherProcess(w.databaseUrl, [freshReview()])).toBe(0);
    await w.restart();
    await waitUntil(() => deliveriesTo(path).length === 1, 'the delivery');
    expect(deliveriesTo(path)[0]!.body.equals((await w.get('/feed.xml')).body)).toBe(true);
  });

  it('verifies a subscription whose verification was in flight at the crash, with a new challenge', async () => {
    const path = '/durable/verifying';
    w.sub.behave(path, { verify: 'hold' });
    await w.subscribe(path, TOPICS.reviews);
    await waitUntil(
      () => w.sub.verifications.filter((v) => v.path === path).length === 1,
      'the verification to start',
    );
    await w.svc.crash();
    w.sub.dropHeld();
    w.sub.behave(path, { verify: 'echo' });
    await w.restart();
    await waitUntil(
      () => w.store.websub.getSubscription(TOPICS.reviews, w.sub.url(path)),
      'the activation',
    );
    const seen = w.sub.verifications.filter((v) => v.path === path);
    expect(seen).toHaveLength(2);
    expect(seen[0]!.query.get('hub.challenge')).not.toBe(seen[1]!.query.get('hub.challenge'));
  });

  it('makes each delivery once when two instances share the store', async () => {
    const second = await startChildService({ databaseUrl: w.databaseUrl, caPath: w.ca.caPath });
    try {
      const now = Date.now();
      for (let i = 0; i < 40; i++) {
        await w.store.websub.putSubscription(
          {
            topic: TOPICS.atom,
            callback: w.sub.url(`/shared/${i}`),
            callbackHost: 'localhost',
            secret: null,
            leaseSeconds: 3600,
            expiresAt: now + 3_600_000,
          },
          now,
        );
      }
      await w.change();
      await w.change();
      await waitUntil(noPendingWork, 'the deliveries');
      const counts = new Map<string, number>();
      for (const d of w.sub.deliveries.filter((d) => d.path.startsWith('/shared/')))
        counts.set(d.path, (counts.get(d.path) ?? 0) + 1);
      expect(counts.size).toBe(40);
      // Two changes: one or two deliveries each (the second may coalesce), never a duplicate of
      // the same content.
      for (const path of counts.keys()) {
        const bodies = w.sub.deliveries
          .filter((d) => d.path === path)
          .map((d) => d.body.toString());
        expect(new Set(bodies).size).toBe(bodies.length);
      }
    } finally {
      await second.stop();
    }
  });
});
