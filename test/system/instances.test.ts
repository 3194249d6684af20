import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import {
  freshReview,
  IDENTITY_HEAD,
  ingestInAnotherProcess,
  postHub,
  startChildService,
  waitUntil,
  type ChildService,
} from '../helpers/child-service.js';
import { testBusiness, testReviews } from '../helpers/fixtures.js';
import { seedStore } from '../helpers/service.js';
import { http } from '../helpers/http.js';
import { initSession, rpc } from '../helpers/mcp.js';
import { startWebSubWorld, TOPICS, type WebSubWorld } from '../helpers/websub.js';
import { systemDatabaseUrl } from './database.js';

/**
 * Two service processes on one PostgreSQL database, as docs/deployment.md deploys them: what one
 * instance does (an import it learns of, a delivery it claims, a session it starts, a request it
 * counts) the other sees.
 */

// A 3 s request timeout keeps a delivery's claim short (2 x timeout + 5 s), so that the surviving
// instance takes over a crashed one's claims within seconds, while a held delivery answered 300 ms
// later still lands well inside it on a busy machine (a request that timed out would be made again,
// and "exactly once" would fail for the machine's load, not the hub's fault).
const ENV = { WEBSUB_TIMEOUT_MS: '3000', WEBSUB_RATE_LIMIT_PER_MIN: '10' };

let w: WebSubWorld;
let cleanupDatabase: () => Promise<void>;
/** The second instance (the world's own service is the first). */
let b: ChildService;

const a = (): ChildService => w.svc;
const startSecond = (): Promise<ChildService> =>
  startChildService({ databaseUrl: w.databaseUrl, caPath: w.ca.caPath, env: ENV });
const deliveriesTo = (path: string) => w.sub.deliveries.filter((d) => d.path === path);
const noPendingWork = () => w.idle();

beforeAll(async () => {
  let databaseUrl: string;
  ({ url: databaseUrl, cleanup: cleanupDatabase } = await systemDatabaseUrl(''));
  w = await startWebSubWorld(ENV, { databaseUrl });
  b = await startSecond();
});

afterAll(async () => {
  await b?.stop();
  await w?.close();
  await cleanupDatabase?.();
});

describe('two instances on one PostgreSQL database', () => {
  it('runs on PostgreSQL', () => {
    expect(w.databaseUrl).toMatch(/^postgres:\/\//);
  });

  it('both serve an import committed by another process', async () => {
    const etags = async () =>
      Promise.all([a(), b].map(async (i) => (await http(`${i.url}/reviews.json`)).headers.etag));
    const before = await etags();
    expect(before[0]).toBe(before[1]);
    const version = await w.change();
    const after = await waitUntil(async () => {
      const now = await etags();
      return now.every((e) => e !== before[0]) && now[0] === now[1] && now;
    }, 'both instances to serve the new version');
    expect(after[0]).not.toBe(before[0]);
    for (const i of [a(), b]) {
      const res = await http(`${i.url}/healthz`);
      expect(JSON.parse(res.body.toString())).toMatchObject({ dataVersion: version });
    }
  });

  it('verifies each subscription once, whichever instance took the request', async () => {
    const paths = Array.from({ length: 6 }, (_, i) => `/verify-once/${i}`);
    for (const [n, path] of paths.entries()) {
      const res = await postHub((n % 2 === 0 ? a() : b).url, {
        'hub.mode': 'subscribe',
        'hub.topic': TOPICS.reviews,
        'hub.callback': w.sub.url(path),
      });
      expect(res.status).toBe(202);
    }
    for (const path of paths)
      await waitUntil(
        () => w.store.websub.getSubscription(TOPICS.reviews, w.sub.url(path)),
        'the activation',
      );
    await waitUntil(noPendingWork, 'the hub to be idle');
    for (const path of paths)
      expect(w.sub.verifications.filter((v) => v.path === path)).toHaveLength(1);
  });

  it('delivers each change to each subscriber exactly once, the two sharing the work', async () => {
    const paths = Array.from({ length: 30 }, (_, i) => `/once/${i}`);
    const now = Date.now();
    for (const path of paths) {
      await w.store.websub.putSubscription(
        {
          topic: TOPICS.atom,
          callback: w.sub.url(path),
          callbackHost: 'localhost',
          secret: null,
          leaseSeconds: 3600,
          expiresAt: now + 3_600_000,
        },
        now,
      );
      // Answered in batches every 300 ms (well within the 3 s timeout): while one instance's requests
      // to the host (8 at most) wait, the other claims the next ones.
      w.sub.behave(path, { deliver: 'hold' });
    }
    const answering = setInterval(() => w.sub.release(), 300);
    const logged = [a(), b].map((i) => i.logs.length);
    const received = w.sub.deliveries.length;
    try {
      const version = await w.change();
      await waitUntil(noPendingWork, 'the deliveries');
      // Both instances publish the version (the same bytes from each); every delivery carries it.
      const feeds = await Promise.all(
        [a(), b].map(async (i) => {
          await waitUntil(
            async () =>
              (
                JSON.parse((await http(`${i.url}/healthz`)).body.toString()) as {
                  dataVersion: number;
                }
              ).dataVersion >= version,
            'the instance to publish the change',
          );
          return (await http(`${i.url}/feed.xml`, { headers: { 'accept-encoding': 'identity' } }))
            .body;
        }),
      );
      expect(feeds[0]!.equals(feeds[1]!)).toBe(true);
      for (const path of paths) {
        const got = deliveriesTo(path);
        expect(got).toHaveLength(1);
        expect(got[0]!.body.equals(feeds[0]!)).toBe(true);
      }
      // Every subscriber (these, and the earlier tests' to other topics) got the change once.
      const during = w.sub.deliveries.slice(received);
      const perPath = new Map<string, number>();
      for (const d of during) perPath.set(d.path, (perPath.get(d.path) ?? 0) + 1);
      expect([...perPath.values()].every((n) => n === 1)).toBe(true);
      expect(perPath.size).toBeGreaterThanOrEqual(paths.length);
      // Per instance, from its log (a line a second while it delivers): each made some of them,
      // and together exactly those the subscribers received.
      const made = (i: ChildService, from: number) =>
        i.logs
          .slice(from)
          .filter((l) => l.includes('"msg":"websub deliveries made"'))
          .reduce((n, l) => n + (JSON.parse(l) as { delivered: number }).delivered, 0);
      const perInstance = await waitUntil(() => {
        const counts = [made(a(), logged[0]!), made(b, logged[1]!)];
        return counts[0]! + counts[1]! >= during.length && counts;
      }, 'both instances to log their deliveries');
      expect(perInstance[0]! + perInstance[1]!).toBe(during.length);
      expect(perInstance[0]).toBeGreaterThan(0);
      expect(perInstance[1]).toBeGreaterThan(0);
    } finally {
      clearInterval(answering);
      for (const path of paths) w.sub.behave(path, { deliver: 204 });
      w.sub.release();
    }
  });

  it('delivers what a killed instance had claimed, from the other', async () => {
    const path = '/taken-over';
    await w.subscribeActive(path, TOPICS.jsonFeed);
    // Only the first instance runs while the change is claimed, so the claim is its own.
    await b.stop();
    w.sub.behave(path, { deliver: 'hold' });
    await w.change();
    await waitUntil(() => deliveriesTo(path).length === 1, 'the first instance to deliver');
    b = await startSecond();
    await a().crash();
    try {
      // The held request dies with its connection's peer; the subscriber now accepts.
      w.sub.dropHeld();
      w.sub.behave(path, { deliver: 204 });
      await waitUntil(noPendingWork, 'the second instance to take the delivery over', 40_000);
      const got = deliveriesTo(path);
      expect(got.length).toBeGreaterThanOrEqual(2);
      const fromB = await http(`${b.url}/api/feed.json`, {
        headers: { 'accept-encoding': 'identity' },
      });
      expect(got.at(-1)!.body.equals(fromB.body)).toBe(true);
    } finally {
      await w.restart(ENV);
    }
  }, 90_000);

  it('keeps an MCP session on either instance, and a DELETE on one ends it on both', async () => {
    const session = await initSession(a().url);
    const headers = { 'mcp-session-id': session, 'mcp-protocol-version': '2025-06-18' };
    const call = (url: string, id: number) =>
      rpc(url, { jsonrpc: '2.0', id, method: 'tools/list' }, headers);
    expect((await call(b.url, 2)).status).toBe(200);
    expect((await call(a().url, 3)).status).toBe(200);
    const del = await fetch(`${b.url}/mcp`, { method: 'DELETE', headers });
    expect(del.status).toBe(200);
    expect((await call(a().url, 4)).status).toBe(404);
    expect((await call(b.url, 5)).status).toBe(404);
  });

  it("counts a client's hub requests on both instances against one limit", async () => {
    const form = {
      'hub.mode': 'subscribe',
      'hub.topic': TOPICS.atom,
      'hub.callback': 'https://subscriber.invalid/limited',
    };
    // Alternating instances: with a count per instance, 20 requests would pass; with one shared
    // count, at most 10 in the window (the earlier tests' hub requests count too). A window that
    // ends midway resets the count: then the loop runs once more, in the next window.
    for (let attempt = 0; ; attempt++) {
      const accepted: number[] = [];
      let refused: { status: number; headers: Headers } | undefined;
      for (let i = 0; i < 22 && !refused; i++) {
        const res = await postHub((i % 2 ? a() : b).url, form);
        if (res.status === 429) refused = res;
        else accepted.push(res.status);
      }
      expect(refused).toBeDefined();
      if (accepted.length > 10 && attempt === 0) continue;
      expect(accepted.length).toBeLessThanOrEqual(10);
      const retryAfter = Number(refused!.headers.get('retry-after'));
      if (retryAfter < 3 && attempt === 0) {
        await new Promise((r) => setTimeout(r, retryAfter * 1000 + 200));
        continue;
      }
      // Once one instance refused, so does the other: one shared count.
      for (const i of [a(), b]) expect((await postHub(i.url, form)).status).toBe(429);
      break;
    }
  });
});

describe('MCP news across instances on PostgreSQL', () => {
  it('tells a session, over its event stream on one instance, of an import it subscribed to on the other', async () => {
    const session = await initSession(b.url);
    const headers = { 'mcp-session-id': session, 'mcp-protocol-version': '2025-06-18' };
    // The stream is registered once its headers arrive.
    const stream = await fetch(`${a().url}/mcp`, {
      headers: { ...headers, accept: 'text/event-stream' },
    });
    expect(stream.status).toBe(200);
    const res = await rpc(
      b.url,
      { jsonrpc: '2.0', id: 9, method: 'resources/subscribe', params: { uri: TOPICS.reviews } },
      headers,
    );
    expect(res.status).toBe(200);
    await w.change();
    const reader = stream.body!.getReader();
    let text = '';
    while (!text.includes('notifications/resources/updated')) {
      const { value, done } = await reader.read();
      if (done) break;
      text += Buffer.from(value).toString('utf8');
    }
    await reader.cancel();
    const updated = text
      .split('\n')
      .filter((l) => l.startsWith('data: '))
      .map((l) => JSON.parse(l.slice(6)) as { method: string; params?: { uri?: string } })
      .find((m) => m.method === 'notifications/resources/updated');
    expect(updated?.params?.uri).toBe(TOPICS.reviews);
  });
});

describe('change notifications between instances on PostgreSQL', () => {
  // The poll, the safety net behind the notifications, a minute away: a change that reaches an
  // instance within the waits below came through NOTIFY (or a listening connection renewed).
  const NOTIFIED = { DATA_POLL_MS: '60000' };
  const WAIT_MS = 20_000;
  let databaseUrl: string;
  let cleanup: () => Promise<void>;
  let admin: pg.Client;
  const instances: ChildService[] = [];

  beforeAll(async () => {
    ({ url: databaseUrl, cleanup } = await systemDatabaseUrl(''));
    await seedStore(databaseUrl, testBusiness(), testReviews(30));
    admin = new pg.Client({ connectionString: databaseUrl });
    await admin.connect();
  });
  afterAll(async () => {
    for (const i of instances) await i.stop();
    await admin?.end();
    await cleanup?.();
  });

  /** The backend processes of the instances' listening connections. */
  const listeners = async (): Promise<number[]> =>
    (
      await admin.query<{ pid: number }>(
        `SELECT pid FROM pg_stat_activity
         WHERE datname = current_database() AND application_name = 'dealer-reviews (watch)'`,
      )
    ).rows.map((r) => r.pid);

  const etagOf = async (i: ChildService) =>
    (await fetch(`${i.url}/reviews.json`, IDENTITY_HEAD)).headers.get('etag');

  /** Log entries of an instance with this message. */
  const logged = (i: ChildService, msg: string) =>
    i.logs
      .filter((l) => l.includes(`"msg":"${msg}"`))
      .map((l) => JSON.parse(l) as Record<string, unknown>);

  it('an import reaches both instances through NOTIFY, with the poll a minute away', async () => {
    for (let n = 0; n < 2; n++) {
      instances.push(await startChildService({ databaseUrl, env: NOTIFIED }));
      await waitUntil(async () => (await listeners()).length === n + 1, 'the instance to listen');
    }
    const before = await Promise.all(instances.map(etagOf));
    expect(before[1]).toBe(before[0]);
    expect(await ingestInAnotherProcess(databaseUrl, [freshReview()])).toBe(0);
    const version = (
      await admin.query<{ version: number }>(
        'SELECT version::int AS version FROM data_state WHERE id = 1',
      )
    ).rows[0]!.version;
    await waitUntil(
      async () => (await Promise.all(instances.map(etagOf))).every((e) => e !== before[0]),
      'both instances to serve the new version',
      WAIT_MS,
    );
    const after = await Promise.all(instances.map(etagOf));
    expect(after[1]).toBe(after[0]);
    for (const i of instances) {
      // Noticed because told: the notification, neither a poll nor a new listening connection.
      expect(logged(i, 'noticed a new data version')).toEqual([
        expect.objectContaining({ version, via: 'notify' }),
      ]);
    }
  });

  it('an instance whose listening connection hangs finds out by its heartbeat and catches up', async () => {
    const [a, b] = instances as [ChildService, ChildService];
    const LOST = 'lost the change notifications; polling the store until they are back';
    expect([...logged(a, LOST), ...logged(b, LOST)]).toEqual([]);
    // One instance's listening backend stops answering; its TCP connection stays up, so only a
    // heartbeat can tell.
    const stopped = (await listeners())[0]!;
    process.kill(stopped, 'SIGSTOP');
    try {
      const before = await Promise.all([a, b].map(etagOf));
      expect(await ingestInAnotherProcess(databaseUrl, [freshReview()])).toBe(0);
      await waitUntil(
        async () => (await Promise.all([a, b].map(etagOf))).every((e) => e !== before[0]),
        'both instances to serve the new version',
        WAIT_MS,
      );
      const lost = [a, b].filter((i) => logged(i, LOST).length > 0);
      // Exactly the instance whose backend hung lost its notifications, and listens again.
      expect(lost).toHaveLength(1);
      await waitUntil(
        () => logged(lost[0]!, 'listening for change notifications again').length > 0,
        'the instance to listen again',
        WAIT_MS,
      );
    } finally {
      process.kill(stopped, 'SIGCONT');
    }
  });
});
