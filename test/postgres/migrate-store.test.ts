/**
 * `dealer-reviews migrate-store` end to end, on the `postgres` project's throwaway cluster: a
 * SQLite store filled by the real commands (import, remove) and the service, copied by the
 * command as a process into a new PostgreSQL database, which the service then serves with the
 * same bytes, the same subscriptions and the same MCP session secret.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openStore } from '../../src/store/index.js';
import { startChildService } from '../helpers/child-service.js';
import { http } from '../helpers/http.js';
import { initSession, rpc } from '../helpers/mcp.js';
import { fixture, runCommand, tempDir, type CliResult } from '../import/helpers.js';

const adminUrl = inject('pgAdminUrl');
const TOPIC = 'https://reviews.example.com/feed.xml';
const DOCUMENTS = ['/reviews.json', '/api/feed.json', '/feed.xml', '/insights.json'];

let admin: pg.Client;
let temp: ReturnType<typeof tempDir>;
let db: string;
let pgUrl: string;
const database = `migrate_${process.pid}`;

/** `dealer-reviews migrate-store` as a process. */
const migrate = (args: readonly string[]): Promise<CliResult> =>
  runCommand('migrate-store', args, db);

beforeAll(async () => {
  admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${database}`);
  const url = new URL(adminUrl);
  url.pathname = `/${database}`;
  pgUrl = url.toString();
  temp = tempDir();
  db = `${temp.dir}/reviews.db`;
});
afterAll(async () => {
  await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
  await admin.end();
  temp.cleanup();
});

async function documents(baseUrl: string) {
  const out: Record<string, { body: Buffer; etag: unknown; lastModified: unknown }> = {};
  for (const path of DOCUMENTS) {
    const res = await http(`${baseUrl}${path}`);
    expect(res.status, path).toBe(200);
    out[path] = {
      body: res.body,
      etag: res.headers.etag,
      lastModified: res.headers['last-modified'],
    };
  }
  return out;
}

describe('dealer-reviews migrate-store', () => {
  it('answers --help and refuses bad command lines in one line', async () => {
    const help = await migrate(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Usage: dealer-reviews migrate-store --from/);
    const missing = await migrate(['--from', `sqlite:${db}`]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/^migrate-store: --to is required\n/);
    const absent = await migrate(['--from', `sqlite:${temp.dir}/none.db`, '--to', pgUrl]);
    expect(absent.code).toBe(1);
    expect(absent.stderr.trim().split('\n')).toEqual([
      `migrate-store: ${temp.dir}/none.db: no such file (--from)`,
    ]);
  });

  it('copies a SQLite store into an empty PostgreSQL database that then serves the same', async () => {
    // The SQLite store, filled as an operator does.
    for (const file of ['business.json', 'dealerrater.json', 'reputation-export.csv']) {
      const run = await runCommand('import', [fixture(file)], db);
      expect(run.code, run.stderr).toBe(0);
    }
    const sqlite = openStore(`sqlite:${db}`);
    const hiddenId = JSON.parse((await sqlite.readDataset()).reviews[0]!).id as string;
    await sqlite.close();
    const removed = await runCommand('remove', [hiddenId, '--reason', 'spam'], db);
    expect(removed.code, removed.stderr).toBe(0);

    // The SQLite service: its documents, and an MCP session it minted.
    const before = await startChildService({ databaseUrl: `sqlite:${db}` });
    let sessionId: string;
    let served: Awaited<ReturnType<typeof documents>>;
    try {
      served = await documents(before.url);
      sessionId = await initSession(before.url);
    } finally {
      await before.stop();
    }
    expect(served['/reviews.json']!.body.toString()).not.toContain(hiddenId);

    // Subscriptions with secrets and pending deliveries, through the store API.
    const store = openStore(`sqlite:${db}`);
    const topic = (await store.websub.listTopics()).find((t) => t.topic.endsWith('/feed.xml'));
    for (const n of [1, 2]) {
      await store.websub.putSubscription(
        {
          topic: topic?.topic ?? TOPIC,
          callback: `https://subscriber.example/cb/${n}`,
          callbackHost: 'subscriber.example',
          secret: `secret-number-${n}`,
          leaseSeconds: 86_400,
          expiresAt: Date.now() + 86_400_000,
        },
        Date.now(),
      );
    }
    const version = (await store.state()).version;
    await store.websub.announce(topic?.topic ?? TOPIC, version + 1, '"next"', Date.now());
    const pending = await store.websub.listPendingDeliveries();
    const sourceCounts = await store.transfer.counts();
    await store.close();
    expect(pending.length).toBeGreaterThanOrEqual(2);

    // The copy, as a process.
    const run = await migrate(['--from', `sqlite:${db}`, '--to', pgUrl, '--json']);
    expect(run.code, run.stderr).toBe(0);
    const report = JSON.parse(run.stdout) as { to: string; counts: Record<string, number> };
    expect(report.counts).toEqual(sourceCounts);
    expect(report.counts).toMatchObject({ hidden_reviews: 1, moderation_log: 1, business: 1 });
    expect(report.counts.reviews).toBeGreaterThan(5);
    expect(report.counts.service_secrets).toBe(1);

    // What the store holds on PostgreSQL, before any instance runs on it.
    const target = openStore(pgUrl);
    try {
      expect(await target.moderation.hiddenIds()).toEqual(new Set([hiddenId]));
      for (const n of [1, 2]) {
        const sub = await target.websub.getSubscription(
          topic?.topic ?? TOPIC,
          `https://subscriber.example/cb/${n}`,
        );
        expect(sub?.secret).toBe(`secret-number-${n}`);
      }
      expect(await target.websub.listPendingDeliveries()).toEqual(pending);
      expect((await target.state()).version).toBe(version);
    } finally {
      await target.close();
    }

    // A second copy into the now non-empty database is refused, in one line.
    const again = await migrate(['--from', `sqlite:${db}`, '--to', pgUrl]);
    expect(again.code).toBe(1);
    expect(again.stderr.trim().split('\n')).toHaveLength(1);
    expect(again.stderr).toMatch(/not empty \(data version \d+, \d+ business/);

    // The service on PostgreSQL: the same bytes and validators, and the session still works.
    const after = await startChildService({ databaseUrl: pgUrl });
    try {
      const copied = await documents(after.url);
      for (const path of DOCUMENTS) {
        expect(copied[path]!.etag, path).toBe(served[path]!.etag);
        expect(copied[path]!.lastModified, path).toBe(served[path]!.lastModified);
        expect(copied[path]!.body.equals(served[path]!.body), path).toBe(true);
      }
      const listed = await rpc(
        after.url,
        { jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} },
        { 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-06-18' },
      );
      expect(listed.status, listed.text).toBe(200);
      expect(listed.text).toContain('search_reviews');
      const stranger = await rpc(
        after.url,
        { jsonrpc: '2.0', id: 3, method: 'tools/list', params: {} },
        { 'mcp-session-id': `${sessionId.slice(0, -4)}AAAA`, 'mcp-protocol-version': '2025-06-18' },
      );
      expect(stranger.status).not.toBe(200);
    } finally {
      await after.stop();
    }
  });
});
