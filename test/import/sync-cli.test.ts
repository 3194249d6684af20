import { spawn, spawnSync } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { gbpReview } from '../helpers/gbp-stand-in.js';
import { ROOT } from '../helpers/tools.js';

/** `dealer-reviews sync` as an operator runs it (issue 30; docs/sources.md). */
describe('dealer-reviews sync', () => {
  let dir = '';
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'sync-cli-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const sync = (args: string[], env: Record<string, string> = {}) =>
    spawnSync(process.execPath, [join(ROOT, 'dist/src/bin.js'), 'sync', ...args], {
      cwd: ROOT,
      encoding: 'utf8',
      env: { PATH: process.env.PATH, DATABASE_URL: `sqlite:${join(dir, 'r.db')}`, ...env },
      timeout: 60_000,
    });

  it('says in one line that no source is configured, exit 1', () => {
    const r = sync([]);
    expect(r.status).toBe(1);
    expect(r.stderr).toBe('sync: no review source is configured (see docs/sources.md)\n');
    expect(r.stdout).toBe('');
  });

  it('refuses a bad SYNC_INTERVAL_SECONDS in one line, and a file argument with the usage', () => {
    const bad = sync([], { SYNC_INTERVAL_SECONDS: 'soon' });
    expect(bad.status).toBe(1);
    expect(bad.stderr).toMatch(/^sync: invalid SYNC_INTERVAL_SECONDS="soon": .+\n$/);
    const file = sync(['reviews.json']);
    expect(file.status).toBe(2);
    expect(file.stderr).toMatch(/^sync: sync takes no arguments\n\nUsage: dealer-reviews sync/);
  });

  it('syncs a watched export URL, then finds it unchanged (304)', async () => {
    const body = JSON.stringify({
      reviews: ['a', 'b'].map((id) => gbpReview(id, '2025-03-01T10:00:00.000Z')),
    });
    const server = createServer((req, res) => {
      if (req.headers['if-none-match'] === '"v1"') return void res.writeHead(304).end();
      res.writeHead(200, { etag: '"v1"', 'content-type': 'application/json' }).end(body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/reviews.json`;
    const env = { SYNC_URLS: url, SYNC_ALLOW_CIDRS: '127.0.0.1/32' };
    // Asynchronous: the export is served by this process meanwhile.
    const run = () =>
      new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
        const child = spawn(process.execPath, [join(ROOT, 'dist/src/bin.js'), 'sync', '--json'], {
          cwd: ROOT,
          env: { PATH: process.env.PATH, DATABASE_URL: `sqlite:${join(dir, 'r.db')}`, ...env },
        });
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (d: Buffer) => (stdout += String(d)));
        child.stderr.on('data', (d: Buffer) => (stderr += String(d)));
        child.on('close', (code) => resolve({ code, stdout, stderr }));
      });
    try {
      const first = await run();
      expect(first.code, first.stderr).toBe(0);
      expect(JSON.parse(first.stdout)).toMatchObject({
        sources: [{ status: 'ran', full: true, report: { inserted: 2, committed: true } }],
      });
      const second = await run();
      expect(JSON.parse(second.stdout)).toMatchObject({
        sources: [{ status: 'ran', full: false, report: { inserted: 0, committed: false } }],
      });
    } finally {
      server.close();
    }
  });
});
