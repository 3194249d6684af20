import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { withTempStore } from '../../test/helpers/temp-store.js';
import type { Store } from '../store/index.js';
import { importFetched } from './import.js';
import { runSource, type RunOptions } from './run.js';
import type { ReviewSource } from './types.js';

const logger = pino({ level: 'silent' });

/** A page of Google's `reviews.list`, as a source fetches it. */
function gbpPage(ids: readonly string[], edited = ''): string {
  const reviews = ids.map((id, i) => ({
    name: `accounts/1/locations/2/reviews/${id}`,
    reviewId: id,
    reviewer: { displayName: `Customer ${id}` },
    starRating: 'FIVE',
    comment: `Great service ${id}${edited}`,
    createTime: `2025-01-0${i + 1}T10:00:00Z`,
    updateTime: `2025-01-0${i + 1}T10:00:00Z`,
  }));
  return JSON.stringify({ reviews, totalReviewCount: reviews.length });
}

/** A source that serves what `serve` says, through the import's path, as the real sources do. */
function pageSource(dir: string, serve: () => { ids: string[]; edited?: string }): ReviewSource {
  return {
    name: 'test',
    async run(ctx) {
      const { ids, edited } = serve();
      const path = join(dir, 'page.json');
      writeFileSync(path, gbpPage(ids, edited));
      return importFetched(ctx, { path, format: 'gbp', complete: ctx.full, cursor: ids.at(-1)! });
    },
  };
}

describe('runSource', () => {
  let store: Store;
  let dir: string;
  withTempStore('sources-run-', (s, d) => {
    store = s;
    dir = d;
  });
  const options = (o: Partial<RunOptions> = {}): RunOptions => ({
    store,
    logger,
    holder: 'instance-a',
    ...o,
  });

  it('imports what the source read and records the run, freeing the lease', async () => {
    const outcome = await runSource(
      pageSource(dir, () => ({ ids: ['a', 'b'] })),
      options(),
    );
    expect(outcome).toMatchObject({ status: 'ran', result: { report: { inserted: 2 } } });
    expect((await store.readDataset()).reviews).toHaveLength(2);
    const run = await store.sources.get('test');
    expect(run).toMatchObject({ holder: null, lastError: null, cursor: 'b' });
    expect(run?.lastSuccessAt).toEqual(expect.any(Number));
  });

  it('updates an edited review, and a full pass removes what the source no longer has', async () => {
    let page: { ids: string[]; edited?: string } = { ids: ['a', 'b', 'c'] };
    const source = pageSource(dir, () => page);
    await runSource(source, options());
    page = { ids: ['a', 'b'], edited: ' (edited)' };
    const incremental = await runSource(source, options());
    expect(incremental).toMatchObject({
      result: { full: false, report: { updated: 2, pruned: 0 } },
    });
    const full = await runSource(source, options({ full: true }));
    expect(full).toMatchObject({ result: { full: true, report: { unchanged: 2, pruned: 1 } } });
    expect((await store.readDataset()).reviews).toHaveLength(2);
    expect((await store.sources.get('test'))?.lastFullAt).toEqual(expect.any(Number));
  });

  it('keeps a review an operator hid hidden', async () => {
    const source = pageSource(dir, () => ({ ids: ['a', 'b'] }));
    await runSource(source, options());
    const hidden = JSON.parse((await store.readDataset()).reviews[0]!) as { id: string };
    const at = new Date().toISOString();
    await store.moderation.apply({
      reviewId: hidden.id,
      action: 'hide',
      reason: 'spam',
      actor: 'ops',
      at,
    });
    const outcome = await runSource(source, options({ full: true }));
    expect(outcome).toMatchObject({ result: { report: { hidden: 1 } } });
    expect((await store.readDataset()).reviews).toHaveLength(1);
  });

  it('writes and records nothing on a dry run', async () => {
    const outcome = await runSource(
      pageSource(dir, () => ({ ids: ['a'] })),
      options({ dryRun: true }),
    );
    expect(outcome).toMatchObject({
      result: { report: { inserted: 1, dryRun: true, committed: false } },
    });
    expect(await store.countReviews()).toBe(0);
    expect(await store.sources.get('test')).toBeNull();
  });

  it('records a failure in one line and frees the lease', async () => {
    const failing: ReviewSource = {
      name: 'test',
      run: () => Promise.reject(new Error('the token endpoint answered 400\n  at somewhere')),
    };
    const outcome = await runSource(failing, options());
    expect(outcome).toEqual({
      status: 'failed',
      error: 'unexpected error: the token endpoint answered 400 at somewhere',
    });
    expect(await store.sources.get('test')).toMatchObject({
      holder: null,
      lastSuccessAt: null,
      lastError: 'unexpected error: the token endpoint answered 400 at somewhere',
    });
  });

  it('leaves a source another instance runs to it, or waits for its run to end when asked', async () => {
    let release = (): void => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const inner = pageSource(dir, () => ({ ids: ['a'] }));
    const slow: ReviewSource = { name: 'test', run: async (ctx) => (await gate, inner.run(ctx)) };
    const first = runSource(slow, options());
    await expect.poll(async () => (await store.sources.get('test'))?.holder).toBe('instance-a');
    expect(await runSource(inner, options({ holder: 'instance-b' }))).toEqual({ status: 'busy' });
    const waiting = runSource(inner, options({ holder: 'instance-b', waitMs: 60_000 }));
    release();
    expect(await first).toMatchObject({ status: 'ran', result: { report: { inserted: 1 } } });
    expect(await waiting).toMatchObject({ status: 'ran', result: { report: { unchanged: 1 } } });
  });
});
