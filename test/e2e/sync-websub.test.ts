/**
 * Issue 30: a sync is an import, published the same way: a review that Google gets is pushed to
 * a WebSub subscriber of `/reviews.json` once, and the runs that find nothing new push nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gbpEnv, gbpReview, startGbpStandIn, type GbpStandIn } from '../helpers/gbp-stand-in.js';
import { startWebSubWorld, TOPICS, type WebSubWorld } from '../helpers/websub.js';

let standIn: GbpStandIn;
let world: WebSubWorld;

beforeAll(async () => {
  standIn = await startGbpStandIn();
  standIn.reviews.set('a', gbpReview('a', '2025-03-01T10:00:00.000Z'));
  world = await startWebSubWorld({ ...gbpEnv(standIn), SYNC_INTERVAL_SECONDS: '1' });
}, 60_000);
afterAll(async () => {
  await world.close();
  await standIn.close();
});

const mentioning = (id: string): number =>
  world.sub.deliveries.filter((d) => d.path === '/reviews' && d.body.includes(`"${id}"`)).length;

describe('a synced review, pushed over WebSub', () => {
  it('reaches the subscriber once', async () => {
    await expect
      .poll(() => world.store.sources.get('gbp'), { timeout: 15_000 })
      .toMatchObject({
        lastError: null,
        lastSuccessAt: expect.any(Number),
      });
    await world.subscribeActive('/reviews', TOPICS.reviews);
    standIn.reviews.set('new-at-google', gbpReview('new-at-google', '2025-03-02T10:00:00.000Z'));
    await expect.poll(() => mentioning('new-at-google'), { timeout: 15_000 }).toBe(1);
    // More runs find nothing new: no new data version, nothing more pushed.
    const seen = standIn.requests.length;
    await expect.poll(() => standIn.requests.length, { timeout: 15_000 }).toBeGreaterThan(seen + 2);
    expect(mentioning('new-at-google')).toBe(1);
  });
});
