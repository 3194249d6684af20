/**
 * An instance on PostgreSQL while its database is away for a few seconds (as during a server
 * restart): it keeps serving what it has, says once what fails (not once per poll), says when it
 * works again, and then serves a change made after the outage.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  freshReview,
  IDENTITY_HEAD,
  ingestInAnotherProcess,
  startChildService,
  waitUntil,
  type ChildService,
} from '../helpers/child-service.js';
import { testBusiness, testReviews } from '../helpers/fixtures.js';
import { initializeRequest, rpc } from '../helpers/mcp.js';
import { seedStore, TEST_BASE_URL } from '../helpers/service.js';
import { systemDatabaseUrl } from './database.js';

const OUTAGE_MS = 4_000;

let databaseUrl: string;
let cleanup: () => Promise<void>;
let admin: pg.Client;
let svc: ChildService;

beforeAll(async () => {
  ({ url: databaseUrl, cleanup } = await systemDatabaseUrl(''));
  await seedStore(databaseUrl, testBusiness(), testReviews(10));
  admin = new pg.Client({ connectionString: inject('pgAdminUrl') });
  await admin.connect();
  // Polls and hub ticks every 100 ms: forty of each during the outage.
  svc = await startChildService({ databaseUrl, env: { DATA_POLL_MS: '100' } });
});

afterAll(async () => {
  await svc?.stop();
  await admin?.end();
  await cleanup?.();
});

/** The instance's log entries at `level` (pino's numbers) or above, by message. */
function counts(level: number): Record<string, number> {
  const out: Record<string, number> = {};
  for (const line of svc.logs) {
    if (!line.startsWith('{')) continue;
    const entry = JSON.parse(line) as { level: number; msg: string };
    if (entry.level >= level) out[entry.msg] = (out[entry.msg] ?? 0) + 1;
  }
  return out;
}

describe('an instance whose database is away for a few seconds', () => {
  it('logs each failing task once and its recovery, and serves again afterwards', async () => {
    const name = new URL(databaseUrl).pathname.slice(1);
    const etag = async () =>
      (await fetch(`${svc.url}/reviews.json`, IDENTITY_HEAD)).headers.get('etag');
    const before = await etag();
    const logged = svc.logs.length;

    // Every connection to the database ended, and no new one accepted, for OUTAGE_MS.
    await admin.query(`ALTER DATABASE ${name} ALLOW_CONNECTIONS false`);
    await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1', [
      name,
    ]);
    const outageEnds = Date.now() + OUTAGE_MS;
    // Meanwhile it serves what it has; what needs the database is a 503 with Retry-After (never
    // a 500: nothing is wrong with the request), and what only counts in it (the rate limits)
    // lets the request through.
    expect((await fetch(`${svc.url}/reviews.json`)).status).toBe(200);
    expect((await fetch(`${svc.url}/api/reviews/search?min_rating=4`)).status).toBe(200);
    const hub = await fetch(`${svc.url}/api/websub/hub`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        'hub.mode': 'subscribe',
        'hub.topic': `${TEST_BASE_URL}/feed.xml`,
        'hub.callback': 'https://127.0.0.1:9/during-the-outage',
      }),
    });
    expect(hub.status).toBe(503);
    expect(hub.headers.get('retry-after')).toMatch(/^\d+$/);
    const initialize = await rpc(svc.url, initializeRequest('2025-06-18', 'outage'));
    expect(initialize.status).toBe(200);
    // /healthz stays 200 (every instance is in the same boat), and says since when it is stale.
    const stale = await waitUntil(async () => {
      const res = await fetch(`${svc.url}/healthz`);
      const body = (await res.json()) as { status: string; stale?: { reason: string } };
      return res.status === 200 && body.stale && body;
    }, 'the instance to say it is stale');
    expect(stale).toMatchObject({ status: 'ok', stale: { reason: 'the store could not be read' } });
    await new Promise((r) => setTimeout(r, Math.max(0, outageEnds - Date.now())));
    expect(await etag()).toBe(before);
    await admin.query(`ALTER DATABASE ${name} ALLOW_CONNECTIONS true`);

    await waitUntil(
      () =>
        svc.logs.slice(logged).some((l) => l.includes('listening for change notifications again')),
      'the instance to listen again',
    );
    expect(await ingestInAnotherProcess(databaseUrl, [freshReview()])).toBe(0);
    await waitUntil(async () => (await etag()) !== before, 'the instance to serve the change');
    expect(await (await fetch(`${svc.url}/healthz`)).json()).not.toHaveProperty('stale');

    // Each task that failed on every poll said so once, and once that it works again.
    const errors = counts(50);
    expect(Object.keys(errors).length).toBeGreaterThan(0);
    for (const [msg, n] of Object.entries(errors)) expect(n, msg).toBe(1);
    const recovered: Record<string, string> = {
      'could not rebuild the published data': 'rebuilding the published data works again',
      'websub could not claim work': 'websub claims work again',
      'websub maintenance failed': 'websub maintenance works again',
    };
    for (const msg of Object.keys(errors)) expect(recovered, msg).toHaveProperty(msg);
    // The websub tasks say it on their own timers, not on the path that served the change.
    await waitUntil(
      () => Object.keys(errors).every((msg) => (counts(30)[recovered[msg]!] ?? 0) > 0),
      'every failing task to say it works again',
    );
    for (const msg of Object.keys(errors)) {
      expect(counts(30)[recovered[msg]!], recovered[msg]).toBe(1);
    }
    expect(counts(40)['lost the change notifications; polling the store until they are back']).toBe(
      1,
    );
  }, 90_000);
});
