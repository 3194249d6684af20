import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { addDays, localDate } from '../../src/domain/dates.js';
import type { Review } from '../../src/domain/review.js';
import type { ChangeEvent } from '../../src/snapshot/types.js';
import { testBusiness, testReviews } from '../helpers/fixtures.js';
import { http } from '../helpers/http.js';
import { connectClient } from '../helpers/mcp.js';
import { startTestService, type TestService } from '../helpers/service.js';
import { runCommand } from '../import/helpers.js';

let svc: TestService;
let db: string;

beforeEach(async () => {
  svc = await startTestService({
    business: testBusiness(),
    reviews: testReviews(60),
    env: { DATA_POLL_MS: '100' },
  });
  db = svc.databaseUrl.slice('sqlite:'.length);
});
afterEach(() => svc.stop());

interface ReviewsDoc {
  aggregateRating: { ratingCount: number; asOf: string | null };
  reviews: Review[];
}

const get = (path: string) => http(`${svc.url}${path}`);

/** Waits until the service publishes a version of /reviews.json other than `etag`. */
async function nextVersionOf(etag: unknown): Promise<ReviewsDoc & { etag: unknown }> {
  const started = Date.now();
  for (;;) {
    const res = await get('/reviews.json');
    if (res.headers.etag !== etag) return { ...res.json<ReviewsDoc>(), etag: res.headers.etag };
    if (Date.now() - started > 30_000) throw new Error('no new version was published');
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('dealer-reviews remove with the service running (issue 15)', { timeout: 90_000 }, () => {
  it('takes a review out of every public document as a new data version, and --undo brings it back', async () => {
    const original = await get('/reviews.json');
    const doc = original.json<ReviewsDoc>();
    const newest = doc.reviews[0]!;
    const version = svc.publisher.current().state.version;
    const events: ChangeEvent[] = [];
    svc.publisher.onChange((e) => events.push(e));

    const removed = await runCommand('remove', [newest.id, '--reason', 'Fake review'], db);
    expect(removed.code, removed.stderr).toBe(0);
    const after = await nextVersionOf(original.headers.etag);

    expect(after.reviews.map((r) => r.id)).not.toContain(newest.id);
    expect(after.reviews).toHaveLength(doc.reviews.length - 1);
    expect(after.aggregateRating.ratingCount).toBe(doc.aggregateRating.ratingCount - 1);
    const feed = (await get('/api/feed.json')).json<{ items: { id: string }[] }>();
    expect(feed.items.map((i) => i.id)).not.toContain(`urn:uuid:${newest.id}`);
    expect(feed.items[0]!.id).toBe(`urn:uuid:${after.reviews[0]!.id}`);
    expect((await get('/feed.xml')).text).not.toContain(newest.id);
    const search = (await get(`/api/reviews/search?since=${newest.date}&limit=100`)).json<{
      reviews: Review[];
    }>();
    expect(search.reviews.map((r) => r.id)).not.toContain(newest.id);
    const since = (await get(`/api/reviews/since/${newest.date}`)).json<{ reviews: Review[] }>();
    expect(since.reviews.map((r) => r.id)).not.toContain(newest.id);
    const { client } = await connectClient(svc.url);
    try {
      const found = await client.callTool({ name: 'get_review', arguments: { id: newest.id } });
      expect(found.isError).toBe(true);
    } finally {
      await client.close();
    }

    expect(svc.publisher.current().state.version).toBe(version + 1);
    await svc.publisher.settled();
    // The new version, then its insights, which follow.
    expect(events.map((e) => e.version)).toEqual([version + 1, version + 1]);
    expect([...events[0]!.changed].sort()).toEqual([
      '/api/feed.json',
      '/feed.xml',
      '/reviews.json',
    ]);
    expect(events[1]!.changed).toEqual(['/insights.json']);

    const shown = await runCommand('remove', [newest.id, '--undo'], db);
    expect(shown.code, shown.stderr).toBe(0);
    const restored = await nextVersionOf(after.etag);
    // The same data as before the removal: the same bytes and ETag, under a newer data version.
    expect(restored.etag).toBe(original.headers.etag);
    expect((await get('/reviews.json')).body.equals(original.body)).toBe(true);
    expect(svc.publisher.current().state.version).toBe(version + 2);
  });
});

describe(
  'an import with a date after tomorrow, the service running (issue 15)',
  { timeout: 90_000 },
  () => {
    it('rejects the 9999-12-31 row, so it never tops the feeds or moves asOf and the insights period', async () => {
      const original = await get('/reviews.json');
      const today = localDate(new Date().toISOString(), testBusiness().timeZone);
      const file = join(svc.dir, 'export.csv');
      writeFileSync(
        file,
        [
          'id,rating,date,author,text',
          `real-1,5,${today},Real Person,Mike fixed the brakes.`,
          'typo-1,1,9999-12-31,Time Traveller,From the future.',
        ].join('\n'),
      );
      const run = await runCommand('import', [file, '--source', 'google', '--json'], db);
      expect(run.code, run.stderr).toBe(0);
      const summary = JSON.parse(run.stdout) as { inserted: number; rejected: { field: string }[] };
      expect(summary.inserted).toBe(1);
      expect(summary.rejected.map((r) => r.field)).toEqual(['date']);

      const after = await nextVersionOf(original.headers.etag);
      expect(after.reviews[0]!.sourceReviewId).toBe('real-1');
      expect(after.reviews.map((r) => r.sourceReviewId)).not.toContain('typo-1');
      expect(after.aggregateRating.asOf! <= `${addDays(today, 2)}T`).toBe(true);
      const feed = (await get('/api/feed.json')).json<{ items: { id: string }[] }>();
      expect(feed.items[0]!.id).toBe(`urn:uuid:${after.reviews[0]!.id}`);
      await svc.publisher.settled();
      const insights = (await get('/insights.json')).json<{ period: { to: string | null } }>();
      expect(insights.period.to! <= addDays(today, 1)).toBe(true);
    });
  },
);
