import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
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
});
