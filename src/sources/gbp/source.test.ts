import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  gbpEnv,
  gbpReview,
  STAND_IN_SECRETS,
  startGbpStandIn,
  type GbpStandIn,
} from '../../../test/helpers/gbp-stand-in.js';
import { withTempStore } from '../../../test/helpers/temp-store.js';
import { loadSyncConfig } from '../../config.js';
import { reviewId } from '../../domain/ids.js';
import type { Review } from '../../domain/review.js';
import type { Store } from '../../store/index.js';
import { runSource, type RunOptions } from '../run.js';
import { gbpSource, takeNewer } from './source.js';

const at = (day: number, hour = 10): string =>
  `2025-03-${String(day).padStart(2, '0')}T${String(hour).padStart(2, '0')}:00:00.000Z`;

describe('takeNewer (the incremental stop rule)', () => {
  const page = [at(5), at(4), at(3), at(2)].map((t, i) => ({ reviewId: `r${i}`, updateTime: t }));

  it('takes every item without a cursor, and goes on to the next page', () => {
    expect(takeNewer(page, null)).toEqual({ newer: page, stop: false });
  });

  it('stops at the first item not newer than the cursor (equal included)', () => {
    expect(takeNewer(page, Date.parse(at(3)))).toEqual({ newer: page.slice(0, 2), stop: true });
    expect(takeNewer(page, Date.parse(at(6)))).toEqual({ newer: [], stop: true });
    expect(takeNewer(page, Date.parse(at(1)))).toEqual({ newer: page, stop: false });
  });
});

describe('the Google Business Profile source, against the local stand-in', () => {
  let standIn: GbpStandIn;
  let store: Store;
  const lines: string[] = [];
  const logger = pino({ level: 'trace' }, { write: (line: string) => void lines.push(line) });
  withTempStore('sources-gbp-', (s) => {
    store = s;
  });
  beforeEach(async () => {
    standIn = await startGbpStandIn();
    lines.length = 0;
  });
  afterEach(() => standIn.close());

  const sync = (
    source = gbpSource(loadSyncConfig(gbpEnv(standIn)).gbp!),
    o: Partial<RunOptions> = {},
  ) => runSource(source, { store, logger, holder: 'test', ...o });
  const published = async (): Promise<Map<string, Review>> => {
    const reviews = (await store.readDataset()).reviews.map((j) => JSON.parse(j) as Review);
    return new Map(reviews.map((r) => [r.sourceReviewId, r]));
  };

  it('maps reviews, reads every page, then stops at what it already has', async () => {
    for (let i = 1; i <= 60; i++)
      standIn.reviews.set(`r${i}`, gbpReview(`r${i}`, at(1 + (i % 20), i % 24)));
    standIn.reviews.set(
      'anon',
      gbpReview('anon', at(25), {
        reviewer: { isAnonymous: true },
        comment: '(Translated by Google) Very good service\n\n(Original)\nSehr guter Service',
        reviewReply: { comment: 'Thank you!', updateTime: at(26) },
      }),
    );
    const source = gbpSource(loadSyncConfig(gbpEnv(standIn)).gbp!);
    expect(await sync(source)).toMatchObject({
      status: 'ran',
      result: { full: true, report: { inserted: 61 } },
    });
    expect(standIn.requests).toEqual([
      'token',
      'pageSize=50&orderBy=updateTime+desc',
      'pageSize=50&orderBy=updateTime+desc&pageToken=50',
    ]);
    const anon = (await published()).get('anon')!;
    expect(anon).toMatchObject({
      source: 'google',
      author: { name: 'A Google user' },
      reviewRating: { ratingValue: 5 },
      reviewBody: 'Sehr guter Service',
      reviewBodyTranslated: 'Very good service',
    });
    expect(anon.datePublished).toBe(at(25));
    expect(anon.ownerResponse).toMatchObject({ text: 'Thank you!' });
    expect(JSON.stringify(anon)).not.toContain('undefined');

    // Google edits one review and gets a new one: one page read, one updated, one inserted.
    standIn.requests.length = 0;
    standIn.reviews.set('r7', gbpReview('r7', at(8), { updateTime: at(27), comment: 'Edited.' }));
    standIn.reviews.set('new', gbpReview('new', at(28)));
    const again = await sync(source);
    expect(again).toMatchObject({
      result: { full: false, report: { inserted: 1, updated: 1, pruned: 0 } },
    });
    expect(standIn.requests).toEqual(['pageSize=50&orderBy=updateTime+desc']);
    expect((await published()).get('r7')?.reviewBody).toBe('Edited.');
  });

  it('removes what a full pass no longer finds, and only a full pass', async () => {
    for (const id of ['a', 'b', 'c']) standIn.reviews.set(id, gbpReview(id, at(2)));
    await sync();
    standIn.reviews.delete('b');
    expect(await sync(undefined, { full: false })).toMatchObject({
      result: { report: { pruned: 0 } },
    });
    expect(await sync(undefined, { full: true })).toMatchObject({
      result: { full: true, report: { pruned: 1 } },
    });
    expect([...(await published()).keys()].sort()).toEqual(['a', 'c']);
    const removal = lines
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .find((l) => l.msg === 'reviews removed at source');
    const id = reviewId('google', 'b');
    expect(removal).toMatchObject({
      source: 'gbp',
      removed: 1,
      ids: [id],
      reason: 'removed at source',
    });
    expect(await store.moderation.log(id)).toMatchObject([
      { action: 'hide', reason: 'removed at source', actor: 'source:gbp' },
    ]);

    // Google shows it again: the next full pass publishes it again.
    standIn.reviews.set('b', gbpReview('b', at(2)));
    expect(await sync(undefined, { full: true })).toMatchObject({
      result: { restored: 1, report: { pruned: 0 } },
    });
    expect([...(await published()).keys()].sort()).toEqual(['a', 'b', 'c']);
  });

  it('refreshes an expired token once, and waits out a 429 with Retry-After', async () => {
    standIn.reviews.set('a', gbpReview('a', at(2)));
    const source = gbpSource(loadSyncConfig(gbpEnv(standIn)).gbp!);
    await sync(source);
    standIn.expireTokens();
    standIn.throttle(1, 1);
    standIn.requests.length = 0;
    expect(await sync(source, { full: true })).toMatchObject({ status: 'ran' });
    expect(standIn.requests.filter((r) => r === 'token')).toHaveLength(1);
    expect(standIn.requests, standIn.requests.join(' ')).toHaveLength(4); // 401, token, 429, the page
  });

  it('keeps the token until a minute before it expires; retries the token endpoint once over', async () => {
    standIn.reviews.set('a', gbpReview('a', at(2)));
    const source = gbpSource(loadSyncConfig(gbpEnv(standIn)).gbp!);
    standIn.tokenLifetime(30);
    await sync(source);
    await sync(source);
    expect(standIn.requests.filter((r) => r === 'token')).toHaveLength(2);
    standIn.tokenLifetime(3599);
    await sync(source);
    await sync(source);
    expect(standIn.requests.filter((r) => r === 'token')).toHaveLength(3);
    // A token endpoint that keeps failing: 5 attempts in all (never the library's retries on top).
    const fresh = gbpSource(loadSyncConfig(gbpEnv(standIn)).gbp!);
    standIn.requests.length = 0;
    standIn.failTokens(100);
    const failed = await sync(fresh);
    expect(standIn.requests).toEqual(Array(5).fill('token'));
    expect(failed).toEqual({
      status: 'failed',
      error: expect.stringMatching(/^127\.0\.0\.1:\d+\/token answered 503 5 times; giving up/),
    });
  });

  it('fails in one line without a secret, and gives up on a 429 that goes on', async () => {
    const env = { ...gbpEnv(standIn), GBP_REFRESH_TOKEN: 'a-revoked-refresh-token' };
    const refused = await sync(gbpSource(loadSyncConfig(env).gbp!));
    expect(refused).toEqual({
      status: 'failed',
      error: 'the token endpoint answered 400 (invalid_grant)',
    });
    standIn.throttle(10, 0);
    const throttled = await sync();
    expect(throttled).toMatchObject({ status: 'failed' });
    expect((throttled as { error: string }).error).toMatch(
      /answered 429 5 times; giving up until the next run$/,
    );
    const everything = lines.join('\n') + JSON.stringify(await store.sources.get('gbp'));
    for (const secret of STAND_IN_SECRETS) expect(everything).not.toContain(secret);
  });
});
