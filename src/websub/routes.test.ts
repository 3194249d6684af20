import { createServer, type Server } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { createApp } from '../app.js';
import { serviceUrls } from '../catalogue.js';
import { createRateLimiter } from '../http/rate-limit.js';
import { createLogger } from '../logger.js';
import { openStore, type Store } from '../store/index.js';
import { createAddressPolicy } from './internal/address-policy.js';
import { createHostVetter } from './internal/target.js';
import { hubRoute } from './routes.js';

const urls = serviceUrls('https://reviews.example.com');
const TOPICS = [urls.atomFeed, urls.jsonFeed, urls.reviews] as [string, ...string[]];
/** Names of public test hosts and the addresses they resolve to. */
const DNS = new Map([
  ['sub.example', ['93.184.216.34']],
  ['alias.example', ['93.184.216.34']],
  ['v6.example', ['2606:2800:220:1:248:1893:25c8:1946']],
  ['other.example', ['93.184.216.35']],
]);

let server: Server | null = null;
const stores: Store[] = [];
afterEach(async () => {
  await new Promise((r) => (server ? server.close(r) : r(null)));
  server = null;
  for (const s of stores.splice(0)) await s.close();
});

/** The hub route on a real port, over `store` (rate limits on their own SQLite store). */
async function hub(store: Store, maxSubscriptionsPerHost = 1) {
  const rates = openStore('sqlite::memory:');
  stores.push(store, rates);
  const route = hubRoute({
    topics: TOPICS,
    lease: { minSeconds: 60, defaultSeconds: 3600, maxSeconds: 86_400 },
    maxSubscriptionsPerHost,
    store: store.websub,
    vet: createHostVetter(createAddressPolicy([]), async (h) => DNS.get(h) ?? [], 1_000),
    limiter: createRateLimiter(rates.rates, 'hub', 1_000),
    clientAddress: (req) => req.socket.remoteAddress ?? 'unknown',
    clock: { now: () => Date.now() },
    onQueued: () => undefined,
  });
  // Behind the app, whose error boundary renders the hub's refusals.
  server = createServer(createApp({ routes: [route], logger: createLogger('silent') }));
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  return async (callback: string) => {
    const res = await fetch(`http://127.0.0.1:${port}/api/websub/hub`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        'hub.mode': 'subscribe',
        'hub.topic': urls.reviews,
        'hub.callback': callback,
      }),
    });
    const text = await res.text();
    const json = res.headers.get('content-type') === 'application/json';
    return {
      status: res.status,
      headers: res.headers,
      body: json ? (JSON.parse(text) as unknown) : text,
    };
  };
}

describe('the per-host cap of the hub', () => {
  it('counts a callback host by the address it resolves to, as well as by name', async () => {
    const subscribe = await hub(openStore('sqlite::memory:'));
    expect((await subscribe('https://sub.example/a')).status).toBe(202);
    // The same machine under another name, as its address, as IPv4-mapped IPv6: one host.
    for (const other of [
      'https://alias.example/b',
      'https://93.184.216.34/c',
      'https://[::ffff:93.184.216.34]/d',
      'https://sub.example:8443/e',
    ]) {
      const res = await subscribe(other);
      expect(res.status, other).toBe(403);
      expect(res.body).toMatchObject({ error: 'forbidden' });
    }
    expect((await subscribe('https://other.example/f')).status).toBe(202);
  });

  it('counts IPv6 callbacks by /64', async () => {
    const subscribe = await hub(openStore('sqlite::memory:'));
    expect((await subscribe('https://v6.example/a')).status).toBe(202);
    expect((await subscribe('https://[2606:2800:220:1::1]/b')).status).toBe(403);
    expect((await subscribe('https://[2606:2800:220:2::1]/c')).status).toBe(202);
  });
});

describe('the hub while its database cannot be reached', () => {
  it('answers 503 store_unavailable with Retry-After: 5, as the rest of the service', async () => {
    // A PostgreSQL store whose server is away (nothing listens on the port).
    const subscribe = await hub(openStore('postgres://hub:hub@127.0.0.1:1/hub'));
    const res = await subscribe('https://sub.example/a');
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('5');
    expect(res.body).toMatchObject({ error: 'store_unavailable' });
  });
});
