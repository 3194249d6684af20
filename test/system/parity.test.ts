import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startChildService, waitUntil, type ChildService } from '../helpers/child-service.js';
import { http } from '../helpers/http.js';
import { initSession, rpc } from '../helpers/mcp.js';
import { systemDatabaseUrl } from './database.js';

/**
 * The same operator steps on both engines (the bundled sample imported by the CLI, a re-import
 * with --prune, a review removed) give the same reports and the same answers: every published
 * document, searches, since results and MCP tool results, byte for byte where the data version's
 * time does not enter.
 */
const ROOT = join(import.meta.dirname, '..', '..');
const BIN = join(ROOT, 'dist', 'src', 'bin.js');
const run = promisify(execFile);

let dir: string;
let cleanupDatabase: () => Promise<void>;
const engines: { name: string; url: string; svc?: ChildService }[] = [];

async function cli(databaseUrl: string, args: string[]): Promise<unknown> {
  const { stdout } = await run(process.execPath, [BIN, ...args], {
    env: { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent' },
  });
  return stdout.trim().startsWith('{') ? JSON.parse(stdout) : stdout;
}

/** The report of an import without what depends on the clock. */
function report(summary: unknown): unknown {
  return JSON.parse(
    JSON.stringify(summary, (key, value: unknown) =>
      ['elapsedMs', 'durationMs', 'changedAt', 'dataVersionAt'].includes(key) ? undefined : value,
    ),
  );
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'parity-'));
  let pgUrl: string;
  ({ url: pgUrl, cleanup: cleanupDatabase } = await systemDatabaseUrl(dir));
  engines.push({ name: 'sqlite', url: `sqlite:${join(dir, 'reviews.db')}` });
  engines.push({ name: 'postgres', url: pgUrl });
});

afterAll(async () => {
  for (const e of engines) await e.svc?.stop();
  await cleanupDatabase?.();
  rmSync(dir, { recursive: true, force: true });
});

describe('the same operator steps on SQLite and PostgreSQL', () => {
  it('import, re-import with --prune and remove report the same', async () => {
    const sample = join(ROOT, 'sample', 'dealership.json');
    const first = await Promise.all(
      engines.map((e) => cli(e.url, ['import', sample, '--json']).then(report)),
    );
    expect(first[1]).toEqual(first[0]);
    // The same file again: nothing changes.
    const again = await Promise.all(
      engines.map((e) => cli(e.url, ['import', sample, '--json']).then(report)),
    );
    expect(again[1]).toEqual(again[0]);
    // A file without its last ten reviews, pruned.
    const data = JSON.parse(readFileSync(sample, 'utf8')) as { reviews: unknown[] };
    data.reviews = data.reviews.slice(0, -10);
    const smaller = join(dir, 'smaller.json');
    writeFileSync(smaller, JSON.stringify(data));
    const pruned = await Promise.all(
      engines.map((e) => cli(e.url, ['import', smaller, '--prune', '--json']).then(report)),
    );
    expect(pruned[1]).toEqual(pruned[0]);
    expect(JSON.stringify(pruned[0])).toMatch(/"removed":10\b|"pruned":10\b/);
  });

  it('serves the same documents, searches, since results and MCP answers', async () => {
    for (const e of engines)
      e.svc = await startChildService({ databaseUrl: e.url, env: { SAMPLE_DATA: 'off' } });
    const reviews = JSON.parse(
      (await http(`${engines[0]!.svc!.url}/reviews.json`)).body.toString(),
    ) as { reviews: { id: string }[] } | { id: string }[];
    const list = Array.isArray(reviews) ? reviews : reviews.reviews;
    expect(list.length).toBeGreaterThan(10);
    // Hide one review on both.
    const victim = list[3]!.id;
    for (const e of engines) await cli(e.url, ['remove', victim, '--reason', 'parity test']);

    const paths = [
      '/reviews.json',
      '/api/feed.json',
      '/feed.xml',
      '/insights.json',
      '/api/reviews/search?min_rating=4&limit=50',
      '/api/reviews/search?query=service&mentions_service=oil-change',
      '/api/reviews/search?rating=1&since=2025-07-01',
      '/api/reviews/since/2024-01-01',
      '/',
      '/?min_rating=4&page=2',
      '/insights',
      `/reviews/${list[0]!.id}`,
    ];
    const bodies = async (svc: ChildService) => {
      const out: Record<string, string> = {};
      for (const p of paths) {
        const res = await http(`${svc.url}${p}`, { headers: { 'accept-encoding': 'identity' } });
        out[p] = `${res.status} ${res.body.toString()}`;
      }
      const session = await initSession(svc.url);
      const headers = { 'mcp-session-id': session, 'mcp-protocol-version': '2025-06-18' };
      for (const [i, [name, args]] of (
        [
          ['search_reviews', { query: 'brakes' }],
          ['get_insights', {}],
          ['get_reviews_since', { date: '2024-01-01' }],
          ['list_staff', {}],
        ] as const
      ).entries()) {
        const res = await rpc(
          svc.url,
          { jsonrpc: '2.0', id: i + 2, method: 'tools/call', params: { name, arguments: args } },
          headers,
        );
        out[`mcp ${name}`] = res.text;
      }
      return out;
    };
    // Both instances publish the version with the review hidden
    // (the insights follow the reviews documents: wait for both).
    for (const e of engines)
      await waitUntil(async () => {
        const reviews = (await http(`${e.svc!.url}/reviews.json`)).body.toString();
        const insights = JSON.parse(
          (await http(`${e.svc!.url}/insights.json`)).body.toString(),
        ) as {
          reviewCount: number;
        };
        return !reviews.includes(victim) && insights.reviewCount === list.length - 1;
      }, 'the removal to be published');
    const [a, b] = await Promise.all(engines.map((e) => bodies(e.svc!)));
    // The hidden review's page is gone on both.
    for (const e of engines)
      expect((await http(`${e.svc!.url}/reviews/${victim}`)).status).toBe(404);
    for (const key of Object.keys(a!)) {
      expect(a![key]!.startsWith('200 ') || key.startsWith('mcp'), key).toBe(true);
      expect(difference(normalise(a![key]!, key), normalise(b![key]!, key)), key).toBeNull();
    }
  });
});

/**
 * Leaves out when each service built its documents (a different moment on each): the insights'
 * `generatedAt`, which the insights page's JSON-LD gives as its `dateModified` (on that page
 * only: reviews' `dateModified` is data, the same on both).
 */
function normalise(text: string, key: string): string {
  const moment =
    key === '/insights'
      ? /((?:generatedAt|dateModified)[^0-9]{1,12})\d{4}-\d\d-\d\dT[\d:.]+Z/g
      : /(generatedAt[^0-9]{1,12})\d{4}-\d\d-\d\dT[\d:.]+Z/g;
  return text.replace(moment, '$1…');
}

/** Where two texts first differ, with some context; `null` when they are equal. */
function difference(a: string, b: string): string | null {
  if (a === b) return null;
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  return `at ${i}: ${JSON.stringify(a.slice(Math.max(0, i - 60), i + 60))} vs ${JSON.stringify(b.slice(Math.max(0, i - 60), i + 60))}`;
}
