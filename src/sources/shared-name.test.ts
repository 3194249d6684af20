/**
 * Issue 30: a watched export of Google reviews (source `google`) and the Google Business Profile
 * source (source `google` too) on one store: each full pass removes only what its own source
 * brought in (the prune is keyed by the configured source, not by the reviews' `source`).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  gbpEnv,
  gbpReview,
  startGbpStandIn,
  type GbpStandIn,
} from '../../test/helpers/gbp-stand-in.js';
import { withTempStore } from '../../test/helpers/temp-store.js';
import { loadSyncConfig } from '../config.js';
import type { Store } from '../store/index.js';
import { gbpSource } from './gbp/source.js';
import { runSource } from './run.js';
import { guardedClient } from './url/fetch.js';
import { urlSource } from './url/source.js';

const logger = pino({ level: 'silent' });
const AT = '2025-03-01T10:00:00.000Z';

describe('two sources of Google reviews on one store', () => {
  let store: Store;
  let standIn: GbpStandIn;
  let server: Server;
  let exported: string[] = [];
  withTempStore('sources-shared-', (s) => {
    store = s;
  });
  beforeEach(async () => {
    standIn = await startGbpStandIn();
    server = createServer((_req, res) => {
      const body = JSON.stringify({ reviews: exported.map((id) => gbpReview(id, AT)) });
      res.writeHead(200, { 'content-type': 'application/json' }).end(body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });
  afterEach(async () => {
    await standIn.close();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  const published = async (): Promise<string[]> =>
    (await store.readDataset()).reviews
      .map((j) => (JSON.parse(j) as { sourceReviewId: string }).sourceReviewId)
      .sort();

  it('never prune each other’s reviews', async () => {
    const port = (server.address() as AddressInfo).port;
    const url = urlSource(`http://127.0.0.1:${port}/takeout.json`, guardedClient(['127.0.0.1']));
    const gbp = gbpSource(loadSyncConfig(gbpEnv(standIn)).gbp!);
    const sync = (source = gbp) => runSource(source, { store, logger, holder: 'test', full: true });
    for (const id of ['g1', 'g2']) standIn.reviews.set(id, gbpReview(id, AT));
    exported = ['t1', 't2'];
    await sync(gbp);
    await sync(url);
    expect(await published()).toEqual(['g1', 'g2', 't1', 't2']);
    // Each full pass lists only its own: neither removes the other's.
    expect(await sync(gbp)).toMatchObject({ result: { report: { pruned: 0 } } });
    expect(await sync(url)).toMatchObject({ result: { report: { pruned: 0 } } });
    standIn.reviews.delete('g2');
    exported = ['t2'];
    expect(await sync(gbp)).toMatchObject({ result: { report: { pruned: 1 } } });
    expect(await sync(url)).toMatchObject({ result: { report: { pruned: 1 } } });
    expect(await published()).toEqual(['g1', 't2']);
  });
});
