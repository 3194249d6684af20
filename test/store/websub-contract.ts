/**
 * The WebSub part of the Store contract: subscriptions, intents, topic versions and deliveries
 * with leased claims, through `store.websub` only. Run by `describeStoreContract` for each engine;
 * not a test file itself.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import type { ServiceStore } from '../../src/store/index.js';
import type { ClaimOptions, NewIntent, NewSubscription } from '../../src/store/index.js';

const TOPIC = 'https://reviews.example.com/feed.xml';
const OTHER = 'https://reviews.example.com/reviews.json';
const HOUR = 3_600_000;

function sub(n: number, host = 'a.example', topic = TOPIC): NewSubscription {
  return {
    topic,
    callback: `https://${host}/cb/${n}`,
    callbackHost: host,
    secret: n % 2 ? `secret-${n}` : null,
    leaseSeconds: 3600,
    expiresAt: 1_000 + HOUR,
  };
}

function intent(mode: NewIntent['mode'], n: number, host = 'a.example'): NewIntent {
  return {
    mode,
    topic: TOPIC,
    callback: `https://${host}/cb/${n}`,
    callbackHost: host,
    secret: null,
    leaseSeconds: mode === 'subscribe' ? 3600 : null,
    reason: null,
  };
}

const claim = (over: Partial<ClaimOptions> = {}): ClaimOptions & { maxVersion: number } => ({
  owner: 'w1',
  now: 2_000,
  leaseMs: 10_000,
  limit: 100,
  perHost: 100,
  hostRemaining: {},
  maxVersion: 100,
  ...over,
});

/**
 * Defines the WebSub tests inside the caller's `describe`; `current()` gives the store of the
 * running test and `openAnother()` a second instance on the same database.
 */
export function describeWebSubContract(
  current: () => ServiceStore,
  openAnother: () => Promise<ServiceStore>,
): void {
  describe('WebSub queue', () => {
    let store: ServiceStore;
    beforeEach(() => {
      store = current();
    });

    it('records the first announcement of a topic without queueing, then queues each newer change once', async () => {
      for (let i = 0; i < 3; i++) await store.websub.putSubscription(sub(i), 1_000);
      await store.websub.putSubscription(sub(9, 'a.example', OTHER), 1_000);
      expect(await store.websub.announce(TOPIC, 1, '"a"', 1_500)).toBe(0);
      expect(await store.websub.announce(TOPIC, 2, '"b"', 1_500)).toBe(3);
      // Another instance announcing the same version, or an older one, changes nothing.
      expect(await store.websub.announce(TOPIC, 2, '"b"', 1_500)).toBe(0);
      expect(await store.websub.announce(TOPIC, 1, '"a"', 1_500)).toBe(0);
      // A newer version with the same bytes queues nothing.
      expect(await store.websub.announce(TOPIC, 3, '"b"', 1_500)).toBe(0);
      const pending = await store.websub.listPendingDeliveries();
      expect(pending.map((p) => [p.callback, p.minVersion])).toEqual([
        ['https://a.example/cb/0', 2],
        ['https://a.example/cb/1', 2],
        ['https://a.example/cb/2', 2],
      ]);
    });

    it('claims each row once, respects host capacity, and hands back rows whose claim expired', async () => {
      for (let i = 0; i < 5; i++) await store.websub.putSubscription(sub(i, 'a.example'), 1_000);
      for (let i = 0; i < 5; i++) await store.websub.putSubscription(sub(i, 'b.example'), 1_000);
      await store.websub.announce(TOPIC, 1, '"a"', 1_500);
      await store.websub.announce(TOPIC, 2, '"b"', 1_500);
      const first = await store.websub.claimDeliveries(
        claim({ perHost: 2, hostRemaining: { 'b.example': 1 } }),
      );
      expect(first.filter((d) => d.callbackHost === 'a.example')).toHaveLength(2);
      expect(first.filter((d) => d.callbackHost === 'b.example')).toHaveLength(1);
      expect(first.find((d) => d.callback.endsWith('/1'))?.secret).toBe('secret-1');
      const second = await store.websub.claimDeliveries(claim({ owner: 'w2' }));
      expect(second).toHaveLength(7);
      const ids = new Set([...first, ...second].map((d) => d.id));
      expect(ids.size).toBe(10);
      expect(await store.websub.claimDeliveries(claim({ owner: 'w3' }))).toEqual([]);
      // Past the leases (until 12 000), the rows can be claimed again.
      const later = await store.websub.claimDeliveries(claim({ owner: 'w3', now: 20_000 }));
      expect(later).toHaveLength(10);
    });

    it('keeps a delivery queued when newer content arrived while it was in flight', async () => {
      await store.websub.putSubscription(sub(1), 1_000);
      await store.websub.announce(TOPIC, 1, '"a"', 1_500);
      await store.websub.announce(TOPIC, 2, '"b"', 1_500);
      const [d] = await store.websub.claimDeliveries(claim());
      await store.websub.announce(TOPIC, 3, '"c"', 1_600);
      await store.websub.announce(TOPIC, 4, '"d"', 1_700);
      await store.websub.deliveriesSucceeded([{ delivery: d!, sentVersion: 2 }], 'w1', 2_100);
      const pending = await store.websub.listPendingDeliveries();
      expect(pending).toEqual([
        expect.objectContaining({ minVersion: 4, attempts: 0, dueAt: 2_100, claimedBy: null }),
      ]);
      expect(await store.websub.countPendingDeliveries()).toBe(1);
      const [again] = await store.websub.claimDeliveries(claim({ now: 2_200 }));
      await store.websub.deliveriesSucceeded([{ delivery: again!, sentVersion: 4 }], 'w1', 2_300);
      expect(await store.websub.listPendingDeliveries()).toEqual([]);
      expect(await store.websub.countPendingDeliveries()).toBe(0);
    });

    it('counts a delivery that failed its retries as one failure, and removes the subscription at the limit with a denial notice', async () => {
      await store.websub.putSubscription(sub(1), 1_000);
      await store.websub.announce(TOPIC, 1, '"a"', 1_100);
      for (let round = 1; round <= 3; round++) {
        await store.websub.announce(TOPIC, round + 1, `"v${round}"`, 1_100);
        const [d] = await store.websub.claimDeliveries(claim());
        await store.websub.deliveryRetry(d!, 'w1', 1_500);
        const [retry] = await store.websub.claimDeliveries(claim());
        expect(retry!.attempts).toBe(1);
        const result = await store.websub.deliveryFailed(retry!, 'w1', 3, 'failing', 2_000);
        expect(result).toEqual({ removed: round === 3, failures: round });
      }
      expect(await store.websub.getSubscription(TOPIC, sub(1).callback)).toBeNull();
      const [notice] = await store.websub.claimIntents(claim());
      expect(notice).toMatchObject({
        mode: 'denied',
        callback: sub(1).callback,
        reason: 'failing',
      });
    });

    it('ends the failure streak on success', async () => {
      await store.websub.putSubscription(sub(1), 1_000);
      await store.websub.announce(TOPIC, 1, '"a"', 1_100);
      await store.websub.announce(TOPIC, 2, '"b"', 1_100);
      let [d] = await store.websub.claimDeliveries(claim());
      await store.websub.deliveryFailed(d!, 'w1', 3, 'x', 1_200);
      expect((await store.websub.getSubscription(TOPIC, sub(1).callback))?.failures).toBe(1);
      await store.websub.announce(TOPIC, 3, '"c"', 1_300);
      [d] = await store.websub.claimDeliveries(claim());
      await store.websub.deliveriesSucceeded([{ delivery: d!, sentVersion: 3 }], 'w1', 1_400);
      expect((await store.websub.getSubscription(TOPIC, sub(1).callback))?.failures).toBe(0);
    });

    it('applies intents of one callback in order, one at a time', async () => {
      await store.websub.addIntent(intent('subscribe', 1), 1_000, 10);
      await store.websub.addIntent(intent('unsubscribe', 1), 1_000, 10);
      await store.websub.addIntent(intent('subscribe', 2), 1_000, 10);
      const first = await store.websub.claimIntents(claim());
      expect(first.map((i) => [i.mode, i.callback])).toEqual([
        ['subscribe', 'https://a.example/cb/1'],
        ['subscribe', 'https://a.example/cb/2'],
      ]);
      expect(await store.websub.claimIntents(claim())).toEqual([]);
      await store.websub.completeIntent(first[0]!, { kind: 'activate', verifiedAt: 1_000 }, 1_000);
      expect(await store.websub.getSubscription(TOPIC, 'https://a.example/cb/1')).toMatchObject({
        expiresAt: 1_000 + HOUR,
        leaseSeconds: 3600,
      });
      const [next] = await store.websub.claimIntents(claim());
      expect(next?.mode).toBe('unsubscribe');
      await store.websub.completeIntent(next!, { kind: 'remove' }, 1_000);
      expect(await store.websub.getSubscription(TOPIC, 'https://a.example/cb/1')).toBeNull();
    });

    it('caps subscriptions and pending requests per callback host, but always lets a subscription renew', async () => {
      expect(await store.websub.addIntent(intent('subscribe', 1), 1_000, 2)).toBe(true);
      expect(await store.websub.addIntent(intent('subscribe', 2), 1_000, 2)).toBe(true);
      expect(await store.websub.addIntent(intent('subscribe', 3), 1_000, 2)).toBe(false);
      expect(await store.websub.addIntent(intent('subscribe', 3, 'b.example'), 1_000, 2)).toBe(
        true,
      );
      const claimed = await store.websub.claimIntents(claim());
      for (const i of claimed.filter((c) => c.callbackHost === 'a.example'))
        await store.websub.completeIntent(i, { kind: 'activate', verifiedAt: 1_000 }, 1_000);
      expect(await store.websub.addIntent(intent('subscribe', 1), 1_000, 2)).toBe(true);
      expect(await store.websub.addIntent(intent('subscribe', 4), 1_000, 2)).toBe(false);
    });

    it('counts a callback host by its host key and by its name alike', async () => {
      const at = (callback: string, callbackHost: string): NewIntent => ({
        ...intent('subscribe', 0),
        callback,
        callbackHost,
      });
      expect(await store.websub.addIntent(at('https://a.example/1', '192.0.2.1'), 1_000, 1)).toBe(
        true,
      );
      // Another name of the same address; the same name resolved elsewhere (with a port too).
      for (const [callback, key] of [
        ['https://b.example/2', '192.0.2.1'],
        ['https://a.example/3', '192.0.2.9'],
        ['https://a.example:8443/4', '192.0.2.9'],
      ] as const)
        expect(await store.websub.addIntent(at(callback, key), 1_000, 1), callback).toBe(false);
      // A name that only begins like it is another host.
      expect(
        await store.websub.addIntent(at('https://a.example.org/5', '192.0.2.5'), 1_000, 1),
      ).toBe(true);
    });

    it('removes expired subscriptions with their pending deliveries', async () => {
      await store.websub.putSubscription(sub(1), 1_000);
      await store.websub.putSubscription({ ...sub(2), expiresAt: 5_000 }, 1_000);
      await store.websub.announce(TOPIC, 1, '"a"', 1_100);
      await store.websub.announce(TOPIC, 2, '"b"', 1_100);
      expect(await store.websub.claimDeliveries(claim({ now: 5_000, limit: 0 }))).toEqual([]);
      expect(
        (await store.websub.claimDeliveries(claim({ now: 5_000 }))).map((d) => d.callback),
      ).toEqual([sub(1).callback]);
      expect(await store.websub.expireSubscriptions(4_999)).toBe(0);
      expect(await store.websub.expireSubscriptions(5_000)).toBe(1);
      expect((await store.websub.listPendingDeliveries()).map((p) => p.callback)).toEqual([
        sub(1).callback,
      ]);
    });

    it('gives back the rows an owner holds, for any worker to claim at once', async () => {
      for (let i = 0; i < 3; i++) await store.websub.putSubscription(sub(i), 1_000);
      await store.websub.addIntent(intent('subscribe', 7), 1_000, 10);
      await store.websub.announce(TOPIC, 1, '"a"', 1_100);
      await store.websub.announce(TOPIC, 2, '"b"', 1_100);
      expect(await store.websub.claimDeliveries(claim())).toHaveLength(3);
      expect(await store.websub.claimIntents(claim())).toHaveLength(1);
      await store.websub.claimDeliveries(claim({ owner: 'w2', limit: 1 }));
      await store.websub.releaseClaims('w1');
      expect((await store.websub.listPendingDeliveries()).map((p) => p.claimedBy)).toEqual([
        null,
        null,
        null,
      ]);
      expect(await store.websub.claimDeliveries(claim({ owner: 'w2' }))).toHaveLength(3);
      expect(await store.websub.claimIntents(claim({ owner: 'w2' }))).toHaveLength(1);
    });

    it("hands the work of an instance whose lease ran out to another, and ignores the first one's late answers", async () => {
      const other = await openAnother();
      await store.websub.putSubscription(sub(1), 1_000);
      await store.websub.addIntent(intent('subscribe', 2), 1_000, 10);
      await store.websub.announce(TOPIC, 1, '"a"', 1_100);
      await store.websub.announce(TOPIC, 2, '"b"', 1_100);
      const [lost] = await store.websub.claimDeliveries(claim({ leaseMs: 1_000 }));
      const [lostIntent] = await store.websub.claimIntents(claim({ leaseMs: 1_000 }));
      // Within the lease, nobody else gets them; past it, the other instance does.
      expect(await other.websub.claimDeliveries(claim({ owner: 'w2', now: 2_999 }))).toEqual([]);
      expect(await other.websub.claimIntents(claim({ owner: 'w2', now: 2_999 }))).toEqual([]);
      const [taken] = await other.websub.claimDeliveries(claim({ owner: 'w2', now: 3_000 }));
      const [takenIntent] = await other.websub.claimIntents(claim({ owner: 'w2', now: 3_000 }));
      expect(taken?.id).toBe(lost!.id);
      expect(takenIntent?.id).toBe(lostIntent!.id);
      // The first owner answers late: its results no longer hold the rows.
      await store.websub.deliveryRetry(lost!, 'w1', 9_000);
      expect(await store.websub.deliveryFailed(lost!, 'w1', 1, 'late', 3_100)).toEqual({
        removed: false,
        failures: 0,
      });
      await store.websub.deliveriesSucceeded([{ delivery: lost!, sentVersion: 2 }], 'w1', 3_100);
      expect(await other.websub.listPendingDeliveries()).toEqual([
        expect.objectContaining({ claimedBy: 'w2', attempts: 0, dueAt: 1_100 }),
      ]);
      await other.websub.deliveriesSucceeded([{ delivery: taken!, sentVersion: 2 }], 'w2', 3_200);
      expect(await store.websub.listPendingDeliveries()).toEqual([]);
      expect((await store.websub.getSubscription(TOPIC, sub(1).callback))?.failures).toBe(0);
    });

    it('claims each intent and each delivery exactly once while two instances claim concurrently, round after round', async () => {
      const other = await openAnother();
      for (let i = 0; i < 60; i++) {
        await store.websub.putSubscription(sub(i, `h${i % 3}.example`), 1_000);
        await store.websub.addIntent(intent('subscribe', 100 + i, `h${i % 3}.example`), 1_000, 100);
      }
      await store.websub.announce(TOPIC, 1, '"a"', 1_100);
      await store.websub.announce(TOPIC, 2, '"b"', 1_100);
      const deliveries: number[] = [];
      const intents: number[] = [];
      const workers = [store, store, other, other].map((s, w) => async () => {
        for (;;) {
          const options = claim({ owner: `w${w}`, limit: 7, perHost: 3 });
          const [d, i] = await Promise.all([
            s.websub.claimDeliveries(options),
            s.websub.claimIntents(options),
          ]);
          if (d.length === 0 && i.length === 0) return;
          deliveries.push(...d.map((x) => x.id));
          intents.push(...i.map((x) => x.id));
        }
      });
      await Promise.all(workers.map((work) => work()));
      expect(deliveries).toHaveLength(60);
      expect(new Set(deliveries).size).toBe(60);
      expect(intents).toHaveLength(60);
      expect(new Set(intents).size).toBe(60);
      const pending = await store.websub.listPendingDeliveries();
      expect(pending.every((p) => p.claimedBy !== null)).toBe(true);
    });

    it('lets two processes on one database claim disjoint rows', async () => {
      const other = await openAnother();
      for (let i = 0; i < 50; i++) await store.websub.putSubscription(sub(i), 1_000);
      await store.websub.announce(TOPIC, 1, '"a"', 1_100);
      await store.websub.announce(TOPIC, 2, '"b"', 1_100);
      const [a, b] = await Promise.all([
        store.websub.claimDeliveries(claim({ limit: 30 })),
        other.websub.claimDeliveries(claim({ owner: 'w2', limit: 30 })),
      ]);
      expect(a.length + b.length).toBe(50);
      expect(new Set([...a, ...b].map((d) => d.id)).size).toBe(50);
    });
  });
}
