import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postHub, waitUntil } from '../helpers/child-service.js';
import { startWebSubWorld, TOPICS, type WebSubWorld } from '../helpers/websub.js';

let w: WebSubWorld;

beforeAll(async () => {
  // A long request timeout: the delivery held while changes are made must not time out on a
  // busy machine (a timed-out delivery is retried, one more delivery than the test expects).
  w = await startWebSubWorld({ WEBSUB_LEASE_MIN_SECONDS: '1', WEBSUB_TIMEOUT_MS: '30000' });
});
afterAll(() => w.close());

const deliveriesTo = (path: string) => w.sub.deliveries.filter((d) => d.path === path);
const verificationsOf = (path: string) => w.sub.verifications.filter((v) => v.path === path);
const noPendingWork = () => w.idle();

describe('WebSub subscription state table (INTERFACE.md)', () => {
  it('(none) -> pending verification -> active: 202 at once, then a GET with mode, topic, a fresh challenge and the lease, keeping the callback query', async () => {
    const res = await postHub(w.svc.url, {
      'hub.mode': 'subscribe',
      'hub.topic': TOPICS.atom,
      'hub.callback': `${w.sub.url('/state/active')}?token=a%20b&x=1`,
      'hub.verify': 'async',
      'hub.lease_seconds': '7200',
    });
    expect(res.status).toBe(202);
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    const [v] = await waitUntil(
      () => verificationsOf('/state/active').length > 0 && verificationsOf('/state/active'),
      'the GET',
    );
    expect(v!.rawQuery.startsWith('token=a%20b&x=1&')).toBe(true);
    expect(v!.query.get('hub.mode')).toBe('subscribe');
    expect(v!.query.get('hub.topic')).toBe(TOPICS.atom);
    expect(v!.query.get('hub.lease_seconds')).toBe('7200');
    expect(v!.query.get('hub.challenge')).toMatch(/^[\w-]{43}$/);
    const sub = await waitUntil(
      () =>
        w.store.websub.getSubscription(
          TOPICS.atom,
          `${w.sub.url('/state/active')}?token=a%20b&x=1`,
        ),
      'activation',
    );
    expect(sub.leaseSeconds).toBe(7200);
    expect(sub.secret).toBeNull();
  });

  it('uses a new challenge for every verification and the default lease of 10 days when none is asked', async () => {
    await w.subscribeActive('/state/default-lease', TOPICS.atom);
    await w.subscribe('/state/default-lease', TOPICS.atom);
    await waitUntil(() => verificationsOf('/state/default-lease').length === 2, 'the renewal');
    const seen = verificationsOf('/state/default-lease');
    expect(seen).toHaveLength(2);
    expect(seen[0]!.query.get('hub.challenge')).not.toBe(seen[1]!.query.get('hub.challenge'));
    expect(seen.map((v) => v.query.get('hub.lease_seconds'))).toEqual(['864000', '864000']);
  });

  it('clamps the lease to the hub bounds (here 1 s .. 30 days)', async () => {
    await w.subscribeActive('/state/long-lease', TOPICS.atom, { 'hub.lease_seconds': '999999999' });
    expect(verificationsOf('/state/long-lease')[0]!.query.get('hub.lease_seconds')).toBe('2592000');
  });

  it('(none) -> rejected: a plain http callback is refused with 400 and never contacted', async () => {
    const before = w.sub.connections();
    const res = await postHub(w.svc.url, {
      'hub.mode': 'subscribe',
      'hub.topic': TOPICS.atom,
      'hub.callback': `http://localhost:${w.sub.port}/state/http`,
    });
    expect(res.status).toBe(400);
    expect(JSON.parse(res.text)).toMatchObject({
      error: 'invalid_request',
      issues: [{ path: ['hub.callback'], message: expect.stringMatching(/^must use https/) }],
    });
    expect(await w.store.websub.countPendingIntents()).toBe(0);
    expect(w.sub.connections()).toBe(before);
  });

  it.each([
    ['not-found', '404'],
    ['wrong', 'a body that is not the challenge'],
    ['echo-newline', 'the challenge plus a newline'],
    ['redirect', 'a redirect'],
  ] as const)('pending verification -> rejected on %s (%s)', async (how, _what) => {
    const path = `/state/rejected-${how}`;
    w.sub.behave(path, { verify: how });
    await w.subscribe(path, TOPICS.atom);
    await waitUntil(() => verificationsOf(path).length === 1, 'the GET');
    await waitUntil(async () => (await w.store.websub.countPendingIntents()) === 0, 'the outcome');
    expect(await w.store.websub.getSubscription(TOPICS.atom, w.sub.url(path))).toBeNull();
    expect(verificationsOf('/elsewhere')).toHaveLength(0);
  });

  it('replaces an active subscription only once the new request is verified', async () => {
    const path = '/state/replace';
    await w.subscribeActive(path, TOPICS.atom, { 'hub.secret': 'first-secret' });
    w.sub.behave(path, { verify: 'not-found' });
    await w.subscribe(path, TOPICS.atom, { 'hub.secret': 'second-secret' });
    await waitUntil(() => verificationsOf(path).length === 2, 'the second GET');
    await waitUntil(async () => (await w.store.websub.countPendingIntents()) === 0, 'the outcome');
    expect((await w.store.websub.getSubscription(TOPICS.atom, w.sub.url(path)))?.secret).toBe(
      'first-secret',
    );
    w.sub.behave(path, { verify: 'echo' });
    await w.subscribe(path, TOPICS.atom, { 'hub.secret': 'second-secret' });
    await waitUntil(
      async () =>
        (await w.store.websub.getSubscription(TOPICS.atom, w.sub.url(path)))?.secret ===
        'second-secret',
      'the replacement',
    );
  });

  it('active -> removed: unsubscribe runs the same handshake and removes only when verified', async () => {
    const path = '/state/unsubscribe';
    await w.subscribeActive(path, TOPICS.jsonFeed);
    w.sub.behave(path, { verify: 'not-found' });
    const res = await postHub(w.svc.url, {
      'hub.mode': 'unsubscribe',
      'hub.topic': TOPICS.jsonFeed,
      'hub.callback': w.sub.url(path),
      'hub.lease_seconds': 'ignored for unsubscribe',
    });
    expect(res.status).toBe(202);
    await waitUntil(() => verificationsOf(path).length === 2, 'the unsubscribe GET');
    const v = verificationsOf(path)[1]!;
    expect(v.query.get('hub.mode')).toBe('unsubscribe');
    expect(v.query.get('hub.topic')).toBe(TOPICS.jsonFeed);
    expect(v.query.get('hub.challenge')).toMatch(/^[\w-]{43}$/);
    await waitUntil(async () => (await w.store.websub.countPendingIntents()) === 0, 'the outcome');
    expect(await w.store.websub.getSubscription(TOPICS.jsonFeed, w.sub.url(path))).not.toBeNull();

    w.sub.behave(path, { verify: 'echo' });
    await postHub(w.svc.url, {
      'hub.mode': 'unsubscribe',
      'hub.topic': TOPICS.jsonFeed,
      'hub.callback': w.sub.url(path),
    });
    await waitUntil(
      async () => (await w.store.websub.getSubscription(TOPICS.jsonFeed, w.sub.url(path))) === null,
      'the removal',
    );
    await w.change();
    await waitUntil(noPendingWork, 'deliveries to finish');
    expect(deliveriesTo(path)).toHaveLength(0);
  });
});

describe('WebSub distribution', () => {
  it('active -> active: POSTs the full current bytes with the GET Content-Type and Link, signed only when a secret was given', async () => {
    await w.subscribeActive('/dist/signed-atom', TOPICS.atom, { 'hub.secret': 'sëcret-1' });
    await w.subscribeActive('/dist/plain-json', TOPICS.jsonFeed);
    await w.subscribeActive('/dist/signed-reviews', TOPICS.reviews, { 'hub.secret': 'two' });
    await w.change();
    await waitUntil(noPendingWork, 'deliveries to finish');
    for (const [path, topicPath, secret] of [
      ['/dist/signed-atom', '/feed.xml', 'sëcret-1'],
      ['/dist/plain-json', '/api/feed.json', null],
      ['/dist/signed-reviews', '/reviews.json', 'two'],
    ] as const) {
      const got = deliveriesTo(path);
      expect(got).toHaveLength(1);
      const current = await w.get(topicPath);
      expect(got[0]!.body.equals(current.body)).toBe(true);
      expect(got[0]!.headers['content-type']).toBe(current.contentType);
      expect(got[0]!.headers.link).toBe(current.link);
      expect(got[0]!.headers.link).toBe(
        `<https://reviews.example.com/api/websub/hub>; rel="hub", <https://reviews.example.com${topicPath}>; rel="self"`,
      );
      if (secret === null) expect(got[0]!.headers['x-hub-signature']).toBeUndefined();
      else
        expect(got[0]!.headers['x-hub-signature']).toBe(
          `sha256=${createHmac('sha256', secret).update(got[0]!.body).digest('hex')}`,
        );
    }
    expect((await w.get('/feed.xml')).contentType).toBe('application/atom+xml');
  });

  it('coalesces changes made while a delivery is in flight into one delivery of the latest content', async () => {
    const path = '/dist/coalesce';
    await w.subscribeActive(path, TOPICS.jsonFeed);
    w.sub.behave(path, { deliver: 'hold' });
    await w.change();
    await waitUntil(() => deliveriesTo(path).length === 1, 'the first delivery');
    await w.change();
    const latest = await w.change();
    const pending = await w.store.websub.listPendingDeliveries();
    expect(pending.find((p) => p.callback === w.sub.url(path))?.minVersion).toBe(latest);
    w.sub.behave(path, { deliver: 204 });
    w.sub.release();
    await waitUntil(noPendingWork, 'deliveries to finish');
    const got = deliveriesTo(path);
    expect(got).toHaveLength(2);
    expect(got[1]!.body.equals((await w.get('/api/feed.json')).body)).toBe(true);
    expect(got[0]!.body.equals(got[1]!.body)).toBe(false);
  });

  it('retries a failing delivery; a 2xx ends the failure streak', async () => {
    const path = '/dist/flaky';
    await w.subscribeActive(path, TOPICS.atom);
    w.sub.behave(path, { deliver: 503 });
    await w.change();
    await waitUntil(noPendingWork, 'the delivery to fail');
    expect(deliveriesTo(path)).toHaveLength(3); // the attempt and two retries (WEBSUB_RETRY_DELAYS_MS=50,50)
    expect((await w.store.websub.getSubscription(TOPICS.atom, w.sub.url(path)))?.failures).toBe(1);
    w.sub.behave(path, { deliver: 202 });
    await w.change();
    await waitUntil(noPendingWork, 'the delivery');
    expect(deliveriesTo(path)).toHaveLength(4);
    expect((await w.store.websub.getSubscription(TOPICS.atom, w.sub.url(path)))?.failures).toBe(0);
    await postHub(w.svc.url, {
      'hub.mode': 'unsubscribe',
      'hub.topic': TOPICS.atom,
      'hub.callback': w.sub.url(path),
    });
  });

  it('active -> removed after 3 consecutive failed deliveries, and tells the subscriber with hub.mode=denied', async () => {
    const path = '/dist/dead';
    await w.subscribeActive(path, TOPICS.reviews);
    w.sub.behave(path, { deliver: 500 });
    for (let round = 1; round <= 3; round++) {
      await w.change();
      await waitUntil(noPendingWork, `failure ${round}`);
    }
    expect(deliveriesTo(path)).toHaveLength(9);
    expect(await w.store.websub.getSubscription(TOPICS.reviews, w.sub.url(path))).toBeNull();
    const denied = verificationsOf(path).filter((v) => v.query.get('hub.mode') === 'denied');
    expect(denied).toHaveLength(1);
    expect(denied[0]!.query.get('hub.topic')).toBe(TOPICS.reviews);
    expect(denied[0]!.query.get('hub.reason')).toMatch(/status 500/);
    await w.change();
    await waitUntil(noPendingWork, 'deliveries to finish');
    expect(deliveriesTo(path)).toHaveLength(9);
  });

  it('removes a subscription at once when the callback answers 410 Gone', async () => {
    const path = '/dist/gone';
    await w.subscribeActive(path, TOPICS.atom);
    w.sub.behave(path, { deliver: 410 });
    await w.change();
    await waitUntil(noPendingWork, 'the delivery');
    expect(deliveriesTo(path)).toHaveLength(1);
    expect(await w.store.websub.getSubscription(TOPICS.atom, w.sub.url(path))).toBeNull();
    expect(verificationsOf(path).filter((v) => v.query.get('hub.mode') === 'denied')).toHaveLength(
      0,
    );
  });

  it('removes a subscription when its lease expires (a 1 s lease, WEBSUB_LEASE_MIN_SECONDS=1)', async () => {
    await w.subscribeActive('/lease/short', TOPICS.atom, { 'hub.lease_seconds': '1' });
    await w.subscribeActive('/lease/control', TOPICS.atom);
    expect(verificationsOf('/lease/short')[0]!.query.get('hub.lease_seconds')).toBe('1');
    await waitUntil(
      async () =>
        (await w.store.websub.getSubscription(TOPICS.atom, w.sub.url('/lease/short'))) === null,
      'the lease to expire',
    );
    await w.change();
    await waitUntil(noPendingWork, 'deliveries to finish');
    expect(deliveriesTo('/lease/control')).toHaveLength(1);
    expect(deliveriesTo('/lease/short')).toHaveLength(0);
  });
});
