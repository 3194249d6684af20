/**
 * Issue 30: a running service watches an export URL (`SYNC_URLS`, on a loopback address that
 * `SYNC_ALLOW_CIDRS` opens) and, by itself, serves the reviews added to it, edited in it and
 * removed from it; and `/healthz` lists the sources also when scheduled sync is off.
 */
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reviewId } from '../../src/domain/ids.js';
import type { RunningService } from '../../src/service.js';
import { gbpReview, type GbpReview } from '../helpers/gbp-stand-in.js';
import { connectClient } from '../helpers/mcp.js';
import { startInstanceOn, startTestService, type TestService } from '../helpers/service.js';
import { ROOT } from '../helpers/tools.js';

const AT = '2025-03-01T10:00:00.000Z';
let server: Server;
let exported: GbpReview[] = [];
let requests = 0;
let url = '';

beforeAll(async () => {
  server = createServer((_req, res) => {
    requests++;
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ reviews: exported }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/export/reviews.json`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const json = async (base: string, path: string) => (await fetch(`${base}${path}`)).json();
const bodies = async (base: string): Promise<[string, string][]> => {
  const doc = (await json(base, '/reviews.json')) as {
    reviews: { sourceReviewId: string; reviewBody: string }[];
  };
  return doc.reviews.map((r): [string, string] => [r.sourceReviewId, r.reviewBody]).sort();
};

describe('a watched export URL, run by the service', () => {
  let service: TestService;
  beforeAll(async () => {
    exported = ['a', 'b'].map((id) => gbpReview(id, AT));
    const env = { SYNC_URLS: url, SYNC_ALLOW_CIDRS: '127.0.0.1/32', SYNC_INTERVAL_SECONDS: '1' };
    service = await startTestService({ env });
  }, 60_000);
  afterAll(() => service.stop());

  it('serves what is added, edited and removed there, by itself', async () => {
    const poll = { timeout: 15_000 };
    await expect
      .poll(() => bodies(service.url), poll)
      .toEqual([
        ['a', 'Bought a car, review a.'],
        ['b', 'Bought a car, review b.'],
      ]);
    exported = [
      gbpReview('a', AT, { comment: 'Edited in the export.', updateTime: '2025-03-02T10:00:00Z' }),
      gbpReview('c', '2025-03-03T10:00:00.000Z'),
    ];
    await expect
      .poll(() => bodies(service.url), poll)
      .toEqual([
        ['a', 'Edited in the export.'],
        ['c', 'Bought a car, review c.'],
      ]);
    const feed = (await json(service.url, '/api/reviews/changes')) as {
      changes: { type: string; id?: string; reason?: string }[];
    };
    expect(feed.changes.filter((c) => c.type === 'removal')).toMatchObject([
      { id: reviewId('google', 'b'), reason: 'deleted' },
    ]);
    // The same over MCP (get_changes, the official client).
    const { client } = await connectClient(service.url);
    try {
      const result = (await client.callTool({ name: 'get_changes', arguments: {} })) as unknown as {
        structuredContent: { changes: { type: string; id?: string; reason?: string }[] };
      };
      expect(result.structuredContent.changes.filter((c) => c.type === 'removal')).toMatchObject([
        { id: reviewId('google', 'b'), reason: 'deleted' },
      ]);
    } finally {
      await client.close();
    }
    // A run's reviews are published a moment before its end is recorded: poll for it.
    await expect
      .poll(async () => ((await json(service.url, '/healthz')) as { sources: unknown[] }).sources, {
        timeout: 15_000,
      })
      .toEqual([
        {
          name: expect.stringMatching(/^url:127\.0\.0\.1:\d+\/export\/reviews\.json$/),
          lastSuccessAt: expect.any(String),
          lastError: null,
          nextRunAt: expect.any(String),
        },
      ]);
  }, 120_000);
});

describe('/healthz with scheduled sync off', () => {
  let service: TestService;
  let another: RunningService | null = null;
  let env: Record<string, string>;
  beforeAll(async () => {
    env = { SYNC_URLS: url, SYNC_ALLOW_CIDRS: '127.0.0.1/32', SYNC_INTERVAL_SECONDS: '0' };
    service = await startTestService({ env });
  }, 60_000);
  afterAll(async () => {
    await another?.close();
    await service.stop();
  });

  /** `dealer-reviews sync` on the service's store. */
  const sync = () =>
    new Promise<number | null>((resolve) => {
      const child = spawn(process.execPath, [join(ROOT, 'dist/src/bin.js'), 'sync'], {
        cwd: ROOT,
        env: { PATH: process.env.PATH, DATABASE_URL: service.databaseUrl, ...env },
        stdio: 'ignore',
      });
      child.on('close', resolve);
    });

  it('lists each source with nextRunAt null, and what the sync command recorded', async () => {
    const seen = requests;
    const health = (await json(service.url, '/healthz')) as { sources: unknown[] };
    expect(health.sources).toEqual([
      { name: expect.any(String), lastSuccessAt: null, lastError: null, nextRunAt: null },
    ]);
    expect(requests).toBe(seen);
    expect(await sync()).toBe(0);
    another = await startInstanceOn(service.databaseUrl, env);
    const url2 = another.url;
    await expect
      .poll(async () => ((await json(url2, '/healthz')) as { sources: unknown[] }).sources, {
        timeout: 15_000,
      })
      .toEqual([
        {
          name: expect.any(String),
          lastSuccessAt: expect.any(String),
          lastError: null,
          nextRunAt: null,
        },
      ]);
  }, 120_000);
});
