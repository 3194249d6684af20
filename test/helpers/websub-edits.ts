import { DOMParser } from '@xmldom/xmldom';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reviewId } from '../../src/domain/ids.js';
import type { Review } from '../../src/domain/review.js';
import { runCommand } from '../import/helpers.js';
import { freshReview, ingestInAnotherProcess, waitUntil } from './child-service.js';
import { testReviews } from './fixtures.js';
import { TOPICS, type WebSubWorld } from './websub.js';

/**
 * Issue 28: WebSub notifications on edits and removals as on new reviews, to a real HTTPS
 * subscriber of each topic, on either engine (`test/e2e/websub-edits.test.ts` on SQLite,
 * `test/system/websub-edits.test.ts` on PostgreSQL). The store holds 30 older reviews and 25
 * newer ones, so the oldest five are in `/reviews.json` but not in the feeds (their 50 newest
 * items). Edits are imports from another process; removals are `dealer-reviews remove`.
 */

let w: WebSubWorld;
const recent = Array.from({ length: 25 }, () => freshReview());
const old = testReviews(30)[0]!;
const idOf = (r: { source?: unknown; sourceReviewId?: unknown }) =>
  reviewId(String(r.source), String(r.sourceReviewId));

const PATHS = {
  atom: '/edits/atom',
  jsonFeed: '/edits/json-feed',
  reviews: '/edits/reviews',
} as const;
const TOPIC_PATHS = { atom: '/feed.xml', jsonFeed: '/api/feed.json', reviews: '/reviews.json' };
type Topic = keyof typeof PATHS;
/**
 * How long a change may take to reach the subscriber: a build of the version and the deliveries
 * (seconds on a machine the other suites load; the default 20 s of `waitUntil` was once too short).
 */
const PATIENCE = 60_000;

/**
 * Makes a change in another process, waits until the hub has announced its version on every
 * topic and delivered everything, and returns the notifications it brought, per topic.
 */
async function notificationsOf(change: () => Promise<number>): Promise<Record<Topic, Buffer[]>> {
  const seen = w.sub.deliveries.length;
  const version = (await w.store.state()).version + 1;
  expect(await change()).toBe(0);
  await waitUntil(
    async () => {
      const topics = await w.store.websub.listTopics();
      return topics.length === 3 && topics.every((t) => t.version >= version);
    },
    'the hub to announce the change',
    PATIENCE,
  );
  await waitUntil(
    async () => (await w.store.websub.listPendingDeliveries()).length === 0,
    'the deliveries',
    PATIENCE,
  );
  const fresh = w.sub.deliveries.slice(seen);
  const of = (topic: Topic) => fresh.filter((d) => d.path === PATHS[topic]).map((d) => d.body);
  return { atom: of('atom'), jsonFeed: of('jsonFeed'), reviews: of('reviews') };
}

/** Each delivered body is the topic's current bytes, as a GET returns them. */
async function expectCurrent(got: Record<Topic, Buffer[]>, topics: Topic[]): Promise<void> {
  for (const topic of topics) {
    expect(got[topic], topic).toHaveLength(1);
    expect(got[topic][0]!.equals((await w.get(TOPIC_PATHS[topic])).body), topic).toBe(true);
  }
}

const reviewIn = (body: Buffer, id: string): Review | undefined =>
  (JSON.parse(body.toString('utf8')) as { reviews: Review[] }).reviews.find((r) => r.id === id);
const feedIds = (body: Buffer): string[] =>
  (JSON.parse(body.toString('utf8')) as { items: { id: string }[] }).items.map((i) => i.id);

const edit = (row: Record<string, unknown>, text: string, dateModified?: string) => () =>
  ingestInAnotherProcess(w.databaseUrl, [{ ...row, reviewBody: text, dateModified }]);
/** `dealer-reviews remove` on the world's store (a SQLite file or a PostgreSQL database). */
const remove =
  (id: string, ...more: string[]) =>
  async (): Promise<number> => {
    const args = [id, '--reason', 'issue 28 test', ...more];
    return (await runCommand('remove', args, '', { DATABASE_URL: w.databaseUrl })).code ?? -1;
  };

/**
 * The suite, on the world `start` opens (and `cleanup` removes after it is closed), named after
 * its engine.
 */
export function describeWebSubEdits(
  engine: string,
  start: () => Promise<{ world: WebSubWorld; cleanup?: () => Promise<void> }>,
): void {
  describe(`issue 28: WebSub on edits and removals (${engine})`, () => {
    let cleanup: (() => Promise<void>) | undefined;
    beforeAll(async () => {
      ({ world: w, cleanup } = await start());
      if ((await ingestInAnotherProcess(w.databaseUrl, recent)) !== 0)
        throw new Error('seed failed');
      await waitUntil(
        async () =>
          (await w.get('/reviews.json')).body.includes(String(recent[24]!.sourceReviewId)),
        'the newer reviews to be published',
        PATIENCE,
      );
      // Their version announced before anyone subscribes: no delivery of it is counted below.
      const { version } = await w.store.state();
      await waitUntil(
        async () => {
          const topics = await w.store.websub.listTopics();
          return topics.length === 3 && topics.every((t) => t.version >= version);
        },
        'the hub to announce the newer reviews',
        PATIENCE,
      );
      for (const topic of Object.keys(PATHS) as Topic[]) {
        await w.subscribeActive(PATHS[topic], TOPICS[topic]);
      }
    }, 3 * PATIENCE);
    afterAll(async () => {
      await w?.close();
      await cleanup?.();
    });

    it(
      'an edit of an old review (not in the feeds) notifies /reviews.json alone, with the edited text',
      async () => {
        const got = await notificationsOf(edit(old, 'Edited two years later: still happy.'));
        await expectCurrent(got, ['reviews']);
        expect(got.atom).toHaveLength(0);
        expect(got.jsonFeed).toHaveLength(0);
        const r = reviewIn(got.reviews[0]!, idOf(old))!;
        expect(r.reviewBody).toBe('Edited two years later: still happy.');
        expect(r.dateModified > r.datePublished).toBe(true);
      },
      2 * PATIENCE,
    );

    it(
      'an edit of a recent review notifies every topic, each with the edited text and its edit time',
      async () => {
        const row = recent[10]!;
        const id = idOf(row);
        // The fresh reviews are dated after today: the edit carries the source's modification time.
        const at = new Date(Date.parse(String(row.datePublished)) + 86_400_000).toISOString();
        const got = await notificationsOf(edit(row, 'UPDATE: they called back and fixed it.', at));
        await expectCurrent(got, ['atom', 'jsonFeed', 'reviews']);
        const r = reviewIn(got.reviews[0]!, id)!;
        expect(r.reviewBody).toBe('UPDATE: they called back and fixed it.');
        expect(r.dateModified).toBe(at);
        const item = (
          JSON.parse(got.jsonFeed[0]!.toString('utf8')) as {
            items: { id: string; content_text: string; date_modified?: string }[];
          }
        ).items.find((i) => i.id === `urn:uuid:${id}`)!;
        expect(item.content_text).toBe('UPDATE: they called back and fixed it.');
        expect(item.date_modified).toBe(r.dateModified);
        const atom = new DOMParser().parseFromString(got.atom[0]!.toString('utf8'), 'text/xml');
        const entry = Array.from(atom.getElementsByTagName('entry')).find(
          (e) => e.getElementsByTagName('id')[0]!.textContent === `urn:uuid:${id}`,
        )!;
        expect(entry.getElementsByTagName('updated')[0]!.textContent).toBe(r.dateModified);
        expect(entry.getElementsByTagName('content')[0]!.textContent).toBe(
          'UPDATE: they called back and fixed it.',
        );
      },
      2 * PATIENCE,
    );

    it(
      'removing an old review notifies /reviews.json alone, without the review',
      async () => {
        const id = reviewId('google', String(testReviews(30)[1]!.sourceReviewId));
        expect(reviewIn((await w.get('/reviews.json')).body, id)).toBeDefined();
        const got = await notificationsOf(remove(id));
        await expectCurrent(got, ['reviews']);
        expect(got.atom).toHaveLength(0);
        expect(got.jsonFeed).toHaveLength(0);
        expect(reviewIn(got.reviews[0]!, id)).toBeUndefined();
      },
      2 * PATIENCE,
    );

    it(
      'removing a recent review notifies every topic without it (an older one fills the feeds), and --undo brings it back',
      async () => {
        const id = idOf(recent[20]!);
        const urn = `urn:uuid:${id}`;
        const got = await notificationsOf(remove(id));
        await expectCurrent(got, ['atom', 'jsonFeed', 'reviews']);
        expect(reviewIn(got.reviews[0]!, id)).toBeUndefined();
        expect(feedIds(got.jsonFeed[0]!)).not.toContain(urn);
        expect(feedIds(got.jsonFeed[0]!)).toHaveLength(50);
        expect(got.atom[0]!.toString('utf8')).not.toContain(urn);

        const back = await notificationsOf(remove(id, '--undo'));
        await expectCurrent(back, ['atom', 'jsonFeed', 'reviews']);
        expect(reviewIn(back.reviews[0]!, id)).toBeDefined();
        expect(feedIds(back.jsonFeed[0]!)).toContain(urn);
        expect(back.atom[0]!.toString('utf8')).toContain(urn);
      },
      2 * PATIENCE,
    );
  });
}
