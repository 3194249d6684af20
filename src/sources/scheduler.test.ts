import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { withTempStore } from '../../test/helpers/temp-store.js';
import type { Store } from '../store/index.js';
import { startSourceScheduler } from './scheduler.js';
import type { ReviewSource, SourceStatus } from './types.js';

const logger = pino({ level: 'silent' });

describe('startSourceScheduler', () => {
  let store: Store;
  withTempStore('sources-scheduler-', (s) => {
    store = s;
  });

  it('runs every source again and again under its lease, and tells each one status', async () => {
    let runs = 0;
    const counted: ReviewSource = {
      name: 'counted',
      async run(ctx) {
        runs++;
        expect(await ctx.store.sources.get('counted')).toMatchObject({ holder: 'me' });
        throw new Error(`run ${runs} failed`);
      },
    };
    const seen: SourceStatus[][] = [];
    const scheduler = startSourceScheduler({
      sources: [counted],
      store,
      logger,
      holder: 'me',
      intervalMs: 10,
    });
    scheduler.onStatus((status) => seen.push(status));
    // A run's status is told after the run (and not at all once stopped): wait for three of them.
    await expect.poll(() => seen.length).toBeGreaterThanOrEqual(3);
    await scheduler.stop();
    const stoppedAt = runs;
    const [status] = scheduler.status();
    expect(status).toMatchObject({ name: 'counted', lastSuccessAt: null });
    expect(status?.lastError).toMatch(/^unexpected error: run \d+ failed$/);
    expect(Date.parse(status!.nextRunAt!)).toEqual(expect.any(Number));
    expect(seen.length).toBeGreaterThanOrEqual(3);
    // Stopped: no run follows, and the lease is free.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(runs).toBe(stoppedAt);
    expect(await store.sources.get('counted')).toMatchObject({ holder: null });
  });

  it('leaves a source that another instance is running to it', async () => {
    await store.sources.acquire('busy', 'another instance', Date.now(), 60_000);
    let runs = 0;
    const busy: ReviewSource = {
      name: 'busy',
      run: () => Promise.reject(new Error(`never run (${++runs})`)),
    };
    const scheduler = startSourceScheduler({
      sources: [busy],
      store,
      logger,
      holder: 'me',
      intervalMs: 10,
    });
    await expect.poll(() => scheduler.status()[0]?.nextRunAt).not.toBeNull();
    await new Promise((resolve) => setTimeout(resolve, 50));
    await scheduler.stop();
    expect(runs).toBe(0);
    expect(await store.sources.get('busy')).toMatchObject({ holder: 'another instance' });
  });
});

describe('startSourceScheduler, the store away', () => {
  let store: Store;
  withTempStore('sources-scheduler-away-', (s) => {
    store = s;
  });

  it('logs each failed run in one line and keeps trying', async () => {
    const lines: string[] = [];
    const logging = pino({ level: 'info' }, { write: (line: string) => void lines.push(line) });
    // A store that was closed: every call fails, as when the database is away.
    await store.close();
    let runs = 0;
    const never: ReviewSource = {
      name: 'never',
      run: () => Promise.reject(new Error(`${++runs}`)),
    };
    const scheduler = startSourceScheduler({
      sources: [never],
      store,
      logger: logging,
      holder: 'me',
      intervalMs: 10,
    });
    await expect
      .poll(() => lines.filter((l) => l.includes('"source sync failed"')).length)
      .toBeGreaterThanOrEqual(3);
    await scheduler.stop();
    expect(runs).toBe(0);
    const failed = lines.find((l) => l.includes('"source sync failed"'))!;
    expect(JSON.parse(failed)).toMatchObject({ source: 'never', reason: expect.any(String) });
    expect(failed).not.toContain('    at ');
  });
});
