import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { gbpReview } from '../../../test/helpers/gbp-stand-in.js';
import { withTempStore } from '../../../test/helpers/temp-store.js';
import type { Store } from '../../store/index.js';
import { EMPTY_LISTING } from '../import.js';
import { runSource } from '../run.js';
import { guardedClient } from './fetch.js';
import { urlSource } from './source.js';

const logger = pino({ level: 'silent' });

describe('a watched export URL', () => {
  let store: Store;
  let server: Server;
  let url = '';
  let body = '';
  const seen: { ifNoneMatch: string | undefined }[] = [];
  withTempStore('sources-url-', (s) => {
    store = s;
  });
  beforeEach(async () => {
    seen.length = 0;
    server = createServer((req, res) => {
      seen.push({ ifNoneMatch: req.headers['if-none-match'] });
      const etag = `"${body.length}-${Buffer.from(body).toString('base64url').slice(-12)}"`;
      if (req.headers['if-none-match'] === etag) return void res.writeHead(304).end();
      res.writeHead(200, { 'content-type': 'application/json', etag }).end(body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/exports/reviews.json`;
  });
  afterEach(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const exportOf = (...ids: string[]) =>
    JSON.stringify({ reviews: ids.map((id) => gbpReview(id, '2025-03-01T10:00:00.000Z')) });
  const sync = (allow: string[]) =>
    runSource(urlSource(url, guardedClient(allow)), { store, logger, holder: 'test' });

  it('imports the export, costs a 304 while it is unchanged, and removes what leaves it', async () => {
    body = exportOf('a', 'b', 'c');
    expect(await sync(['127.0.0.1/32'])).toMatchObject({
      status: 'ran',
      result: { full: true, report: { inserted: 3 } },
    });
    const unchanged = await sync(['127.0.0.1/32']);
    expect(unchanged).toMatchObject({ status: 'ran', result: { report: { committed: false } } });
    expect(seen.at(-1)?.ifNoneMatch).toMatch(/^"/);
    body = exportOf('a', 'c');
    expect(await sync(['127.0.0.1/32'])).toMatchObject({ result: { report: { pruned: 1 } } });
    // Removed at source: hidden (still stored), out of publication.
    expect((await store.readDataset()).reviews).toHaveLength(2);
    // An export emptied by mistake removes nothing.
    body = exportOf();
    expect(await sync(['127.0.0.1/32'])).toMatchObject({
      result: { report: { pruned: 0, warnings: [EMPTY_LISTING] } },
    });
    expect((await store.readDataset()).reviews).toHaveLength(2);
    expect(await store.sources.get(urlSource(url, guardedClient([])).name)).toMatchObject({
      name: expect.stringMatching(/^url:127\.0\.0\.1:\d+\/exports\/reviews\.json$/),
      lastError: null,
    });
  });

  it('refuses a loopback host, and plain http, unless SYNC_ALLOW_CIDRS names the address', async () => {
    body = exportOf('a');
    expect(await sync([])).toEqual({
      status: 'failed',
      error: 'the export host is a loopback address',
    });
    // Loopback opened by a range that is not the host's own: still refused.
    expect(await sync(['10.0.0.0/8'])).toMatchObject({ status: 'failed' });
    expect(seen).toHaveLength(0);
    expect(await store.countReviews()).toBe(0);
  });

  it('refuses plain http to a public address, and https to a name that resolves to a private one', async () => {
    const resolver = (addresses: string[]) => async () => addresses;
    const run = (target: string, addresses: string[]) =>
      runSource(urlSource(target, guardedClient([], resolver(addresses))), {
        store,
        logger,
        holder: 'test',
      });
    expect(await run('http://exports.example/reviews.json', ['93.184.216.34'])).toEqual({
      status: 'failed',
      error: 'http is refused unless the host lies in SYNC_ALLOW_CIDRS',
    });
    expect(await run('https://exports.example/reviews.json', ['10.1.2.3'])).toEqual({
      status: 'failed',
      error: 'the export host resolves to a private address',
    });
    expect(await run('https://exports.example/reviews.json', ['169.254.169.254'])).toMatchObject({
      status: 'failed',
      error: expect.stringMatching(/^the export host resolves to a /),
    });
    expect(await store.countReviews()).toBe(0);
  });
});
