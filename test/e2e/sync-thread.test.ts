/**
 * Issue 30: the sync thread that dies outside a run (here: it cannot open its store) is logged
 * once per death and replaced after a backoff, by itself, and the service's view of the
 * sources (their status, read from the store by the new thread) comes back with it.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { loadSyncConfig } from '../../src/config.js';
import { sourceNames, startSyncWorker, type SyncWorker } from '../../src/sources/index.js';
import { openStore } from '../../src/store/index.js';

describe('the sync thread', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sync-thread-'));
  let worker: SyncWorker | null = null;
  afterEach(async () => {
    await worker?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('is replaced after a backoff when it dies, each death logged once', async () => {
    const lines: Record<string, unknown>[] = [];
    const logger = pino(
      { level: 'info' },
      {
        write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>),
      },
    );
    // The store's folder is a file at first: the thread cannot open its store, and ends.
    writeFileSync(join(dir, 'data'), 'not a folder');
    const databaseUrl = `sqlite:${join(dir, 'data', 'reviews.db')}`;
    const settings = loadSyncConfig({
      SYNC_URLS: 'https://exports.example/reviews.json',
      SYNC_INTERVAL_SECONDS: '0',
    });
    const [name] = sourceNames(settings);
    const data = { databaseUrl, logLevel: 'silent', settings, firstDelayMs: 0 };
    worker = startSyncWorker(data, logger, [name!]);
    expect(worker.status()).toEqual([
      { name, lastSuccessAt: null, lastError: null, nextRunAt: null },
    ]);
    const deaths = () => lines.filter((l) => l.msg === 'the sync thread died');
    await expect.poll(deaths, { timeout: 15_000 }).toHaveLength(2);
    expect(deaths()).toMatchObject([
      { reason: expect.stringMatching(/^it could not start: /), restartInMs: 1_000 },
      { restartInMs: 2_000 },
    ]);
    // The folder is back, with a run of the source recorded: the next thread reads it.
    rmSync(join(dir, 'data'));
    mkdirSync(join(dir, 'data'));
    const store = openStore(databaseUrl);
    await store.sources.acquire(name!, 'elsewhere', 1_000, 60_000);
    await store.sources.finish(name!, 'elsewhere', {
      at: 5_000,
      error: null,
      full: true,
      cursor: null,
    });
    await store.close();
    await expect
      .poll(() => worker!.status(), { timeout: 15_000 })
      .toEqual([
        { name, lastSuccessAt: new Date(5_000).toISOString(), lastError: null, nextRunAt: null },
      ]);
    expect(deaths().length).toBeLessThanOrEqual(3);
    expect(worker.runs()).toEqual([{ name, ran: 0, failed: 0, busy: 0 }]);
  }, 120_000);
});
