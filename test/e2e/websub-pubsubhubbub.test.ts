import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { createServer as createSubscriber, type Notification } from 'pubsubhubbub';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitUntil } from '../helpers/child-service.js';
import { startWebSubWorld, TOPICS, type WebSubWorld } from '../helpers/websub.js';

let w: WebSubWorld;
let server: Server;
let port: number;

beforeAll(async () => {
  w = await startWebSubWorld();
  server = createServer({ cert: w.ca.cert, key: w.ca.key });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
  await w.close();
});

describe('a third-party subscriber (the pubsubhubbub npm package, no secret)', () => {
  it('subscribes, receives a change and unsubscribes through the hub', async () => {
    const pshb = createSubscriber({ callbackUrl: `https://localhost:${port}/pshb` });
    server.on('request', pshb.listener());
    const events: string[] = [];
    const feeds: Notification[] = [];
    pshb.on('subscribe', () => events.push('subscribe'));
    pshb.on('unsubscribe', () => events.push('unsubscribe'));
    pshb.on('denied', () => events.push('denied'));
    pshb.on('feed', (n: Notification) => feeds.push(n));
    const hub = `${w.svc.url}/api/websub/hub`;

    await new Promise<void>((resolve, reject) =>
      pshb.subscribe(TOPICS.atom, hub, (err) => (err ? reject(err) : resolve())),
    );
    await waitUntil(() => events.includes('subscribe'), 'the verification');
    await waitUntil(async () => (await w.store.websub.countSubscriptions()) === 1, 'activation');

    await w.change();
    const [feed] = await waitUntil(() => feeds.length > 0 && feeds, 'the notification');
    expect(feed!.topic).toBe(TOPICS.atom);
    expect(feed!.hub).toBe('https://reviews.example.com/api/websub/hub');
    expect(feed!.feed.equals((await w.get('/feed.xml')).body)).toBe(true);
    expect(feed!.headers['content-type']).toBe('application/atom+xml');
    expect(feed!.headers['x-hub-signature']).toBeUndefined();

    await new Promise<void>((resolve, reject) =>
      pshb.unsubscribe(TOPICS.atom, hub, (err) => (err ? reject(err) : resolve())),
    );
    await waitUntil(() => events.includes('unsubscribe'), 'the unsubscribe verification');
    await waitUntil(async () => (await w.store.websub.countSubscriptions()) === 0, 'removal');
    expect(events).toEqual(['subscribe', 'unsubscribe']);
  });
});
