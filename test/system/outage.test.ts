/**
 * An instance on PostgreSQL while its database is away for a few seconds (as during a server
 * restart): it keeps serving what it has, says once what fails (not once per poll), says when it
 * works again, and then serves a change made after the outage.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  freshReview,
  ingestInAnotherProcess,
  startChildService,
  waitUntil,
  type ChildService,
} from '../helpers/child-service.js';
import { testBusiness, testReviews } from '../helpers/fixtures.js';
import { seedStore } from '../helpers/service.js';
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
      (await fetch(`${svc.url}/reviews.json`, { method: 'HEAD' })).headers.get('etag');
    const before = await etag();
    const logged = svc.logs.length;

    // Every connection to the database ended, and no new one accepted, for OUTAGE_MS.
    await admin.query(`ALTER DATABASE ${name} ALLOW_CONNECTIONS false`);
    await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1', [
      name,
    ]);
    await new Promise((r) => setTimeout(r, OUTAGE_MS));
    // Meanwhile it served what it had.
    expect((await fetch(`${svc.url}/reviews.json`)).status).toBe(200);
    expect(await etag()).toBe(before);
    await admin.query(`ALTER DATABASE ${name} ALLOW_CONNECTIONS true`);

    await waitUntil(
      () =>
        svc.logs.slice(logged).some((l) => l.includes('listening for change notifications again')),
      'the instance to listen again',
    );
    expect(await ingestInAnotherProcess(databaseUrl, [freshReview()])).toBe(0);
    await waitUntil(async () => (await etag()) !== before, 'the instance to serve the change');

    // Each task that failed on every poll said so once, and once that it works again.
    const errors = counts(50);
    expect(Object.keys(errors).length).toBeGreaterThan(0);
    for (const [msg, n] of Object.entries(errors)) expect(n, msg).toBe(1);
    const recovered: Record<string, string> = {
      'could not rebuild the published data': 'rebuilding the published data works again',
      'websub could not claim work': 'websub claims work again',
      'websub maintenance failed': 'websub maintenance works again',
    };
    for (const msg of Object.keys(errors)) {
      expect(recovered, msg).toHaveProperty(msg);
      expect(counts(30)[recovered[msg]!], recovered[msg]).toBe(1);
    }
    expect(counts(40)['lost the change notifications; polling the store until they are back']).toBe(
      1,
    );
  }, 90_000);
});
