import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChangeEvent } from '../../src/snapshot/types.js';
import { ingestInAnotherProcess } from '../helpers/child-service.js';
import { testBusiness, testReviews } from '../helpers/fixtures.js';
import { http } from '../helpers/http.js';
import { startTestService, type TestService } from '../helpers/service.js';
import { fixture, runCli } from '../import/helpers.js';

let svc: TestService;

beforeAll(async () => {
  svc = await startTestService({
    business: testBusiness(),
    reviews: testReviews(60),
    env: { DATA_POLL_MS: '200' },
  });
});
afterAll(() => svc.stop());

// Each wait allows 30 s for another process's commit to be published: a busy machine is slow.
describe('live updates', { timeout: 90_000 }, () => {
  it('publishes an import committed by another process without a restart, announcing the changed documents once, and the insights when they follow', async () => {
    const before = await http(`${svc.url}/reviews.json`);
    const events: ChangeEvent[] = [];
    svc.publisher.onChange((e) => events.push(e));

    // Hammer the dataset during the swap: every response must be internally consistent.
    let hammering = true;
    const seen = new Set<string>();
    const hammer = (async () => {
      while (hammering) {
        const res = await http(`${svc.url}/reviews.json`);
        const body = res.json<{ aggregateRating: { ratingCount: number }; reviews: unknown[] }>();
        expect(body.aggregateRating.ratingCount).toBe(body.reviews.length);
        const etag = `"${createHash('sha1').update(res.body).digest('base64url')}"`;
        expect(res.headers.etag).toBe(etag);
        seen.add(etag);
      }
    })();

    const newReview = {
      source: 'google',
      sourceReviewId: 'live-1',
      reviewRating: { ratingValue: 4 },
      reviewBody: 'Sarah fixed the brakes while I waited.',
      author: { name: 'Live Tester' },
      datePublished: '2031-05-05T15:00:00Z',
    };
    const started = Date.now();
    expect(await ingestInAnotherProcess(svc.databaseUrl, [newReview])).toBe(0);
    let after = before;
    while (Date.now() - started < 30_000) {
      after = await http(`${svc.url}/reviews.json`);
      if (after.headers.etag !== before.headers.etag) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    hammering = false;
    await hammer;

    expect(after.headers.etag).not.toBe(before.headers.etag);
    const doc = after.json<{
      reviews: { sourceReviewId: string; mentions: { services: string[] } }[];
    }>();
    expect(doc.reviews[0]!.sourceReviewId).toBe('live-1');
    expect(doc.reviews[0]!.mentions.services).toEqual(['brakes']);
    await svc.publisher.settled();
    // The new version (dataset and feeds), then its insights, which follow.
    expect(events.map((e) => [...e.changed].sort())).toEqual([
      ['/api/feed.json', '/feed.xml', '/reviews.json'],
      ['/insights.json'],
    ]);
    expect(events[1]!.version).toBe(events[0]!.version);
    expect(seen.size).toBeGreaterThanOrEqual(2);
  });

  it('does not announce anything when an import changes nothing', async () => {
    const events: ChangeEvent[] = [];
    const off = svc.publisher.onChange((e) => events.push(e));
    const version = svc.publisher.current().state.version;
    const same = {
      source: 'google',
      sourceReviewId: 'live-1',
      reviewRating: { ratingValue: 4 },
      reviewBody: 'Sarah fixed the brakes while I waited.',
      author: { name: 'Live Tester' },
      datePublished: '2031-05-05T15:00:00Z',
    };
    expect(await ingestInAnotherProcess(svc.databaseUrl, [same])).toBe(0);
    await new Promise((r) => setTimeout(r, 600));
    await svc.publisher.refresh();
    off();
    expect(events).toHaveLength(0);
    expect(svc.publisher.current().state.version).toBe(version);
  });

  it('announces the dataset and the insights, not the feeds, when an old review changes', async () => {
    const events: ChangeEvent[] = [];
    const off = svc.publisher.onChange((e) => events.push(e));
    const oldest = testReviews(60)[0]!;
    expect(
      await ingestInAnotherProcess(svc.databaseUrl, [
        { ...oldest, reviewBody: 'Edited much later.' },
      ]),
    ).toBe(0);
    const started = Date.now();
    while (events.length < 2 && Date.now() - started < 30_000)
      await new Promise((r) => setTimeout(r, 50));
    off();
    // The new version (the dataset), then its insights, which follow.
    expect(events.map((e) => e.changed)).toEqual([['/reviews.json'], ['/insights.json']]);
    expect(events[1]!.version).toBe(events[0]!.version);
  });

  it('publishes what the import CLI commits from another process', async () => {
    const before = svc.publisher.current().index.size;
    const etag = (await http(`${svc.url}/reviews.json`)).headers.etag;
    const run = await runCli(
      [fixture('gbp-api-page.json'), '--json'],
      svc.databaseUrl.slice('sqlite:'.length),
    );
    expect(run.code, run.stderr).toBe(0);
    const { inserted } = JSON.parse(run.stdout) as { inserted: number };
    expect(inserted).toBeGreaterThan(0);
    let after = await http(`${svc.url}/reviews.json`);
    const started = Date.now();
    while (after.headers.etag === etag && Date.now() - started < 30_000) {
      await new Promise((r) => setTimeout(r, 50));
      after = await http(`${svc.url}/reviews.json`);
    }
    const doc = after.json<{ reviews: { source: string }[] }>();
    expect(doc.reviews).toHaveLength(before + inserted);
  });
});
