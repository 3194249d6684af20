import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/logger.js';
import { startService } from '../../src/service.js';
import { testBusiness, testReviews } from '../helpers/fixtures.js';
import { http } from '../helpers/http.js';
import { startTestService, type TestService } from '../helpers/service.js';
import { runCommand } from '../import/helpers.js';

let svc: TestService;

beforeAll(async () => {
  svc = await startTestService({ business: testBusiness(), reviews: testReviews(40) });
});
afterAll(() => svc.stop());

describe('dealer-reviews backup', () => {
  it('copies the store while the service runs; the copy serves the same documents', async () => {
    const db = svc.databaseUrl.slice('sqlite:'.length);
    const target = join(svc.dir, 'backups', 'copy.db');
    const run = await runCommand('backup', [target], db);
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ backup: target });
    const copy = await startService(
      loadConfig({
        PORT: '0',
        HOST: '127.0.0.1',
        BASE_URL: 'https://reviews.example.com',
        DATABASE_URL: `sqlite:${target}`,
        SAMPLE_DATA: 'off',
        LOG_LEVEL: 'silent',
      }),
      createLogger('silent'),
    );
    try {
      const [a, b] = await Promise.all([
        http(`${svc.url}/reviews.json`),
        http(`${copy.url}/reviews.json`),
      ]);
      expect(b.body.equals(a.body)).toBe(true);
      expect(b.headers.etag).toBe(a.headers.etag);
      // A mirror's change-feed cursor of the original is expired on the copy (a restored store
      // numbers changes again from the backup's point), never silently ahead of it.
      const cursor = a.headers['changes-cursor'] as string;
      expect(cursor).toMatch(/^[\w-]+$/);
      expect((await http(`${svc.url}/api/reviews/changes?after=${cursor}`)).status).toBe(200);
      const onCopy = await http(`${copy.url}/api/reviews/changes?after=${cursor}`);
      expect(onCopy.status).toBe(410);
      expect(onCopy.json()).toMatchObject({ error: 'cursor_expired' });
    } finally {
      await copy.close();
    }
  });

  it('refuses to overwrite a file, in one line', async () => {
    const db = svc.databaseUrl.slice('sqlite:'.length);
    const run = await runCommand('backup', [db], db);
    expect(run.code).toBe(1);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toMatch(/exists/);
  });

  it('refuses a store that does not exist, in one line, and creates none', async () => {
    const missing = join(svc.dir, 'no-such-folder', 'reviews.db');
    const target = join(svc.dir, 'backups', 'of-nothing.db');
    const run = await runCommand('backup', [target], missing);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(`backup: ${missing}: no such file (DATABASE_URL)\n`);
    expect(existsSync(missing)).toBe(false);
    expect(existsSync(target)).toBe(false);
  });
});

describe('dealer-reviews insights', () => {
  it('refuses a store that does not exist, in one line, and creates none', async () => {
    const missing = join(svc.dir, 'elsewhere', 'reviews.db');
    const run = await runCommand('insights', ['--json'], missing);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe(`insights: ${missing}: no such file (DATABASE_URL)\n`);
    expect(existsSync(missing)).toBe(false);
  });
});
