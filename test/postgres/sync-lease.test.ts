/**
 * Issue 30 on PostgreSQL: two instances of the service (processes) on one database, both
 * configured with the same Google Business Profile location (the local stand-in), sync it by
 * themselves; the source's lease in the store lets one instance at a time run it, so their runs
 * never overlap, and both serve what either brought in.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startChildService, type ChildService } from '../helpers/child-service.js';
import {
  gbpEnv,
  gbpReview,
  STAND_IN_SECRETS,
  startGbpStandIn,
  type GbpStandIn,
} from '../helpers/gbp-stand-in.js';
import { throwawayDatabase } from '../helpers/pg-database.js';

const adminUrl = inject('pgAdminUrl');

let database: Awaited<ReturnType<typeof throwawayDatabase>>;
let standIn: GbpStandIn;
const instances: ChildService[] = [];

beforeAll(async () => {
  database = await throwawayDatabase(adminUrl, `sync_lease_${process.pid}`);
  standIn = await startGbpStandIn();
  for (const id of ['a', 'b', 'c'])
    standIn.reviews.set(id, gbpReview(id, '2025-03-01T10:00:00.000Z'));
  // Each list call takes a while: runs of the two instances that overlapped would show.
  standIn.slowDown(300);
  const env = { ...gbpEnv(standIn), SYNC_INTERVAL_SECONDS: '1' };
  for (let i = 0; i < 2; i++) {
    instances.push(await startChildService({ databaseUrl: database.url, env }));
  }
}, 120_000);
afterAll(async () => {
  await Promise.all(instances.map((i) => i.stop()));
  await standIn.close();
  await database.drop();
});

const publishedIds = async (base: string): Promise<string[]> => {
  const doc = (await (await fetch(`${base}/reviews.json`)).json()) as {
    reviews: { sourceReviewId: string }[];
  };
  return doc.reviews.map((r) => r.sourceReviewId).sort();
};

describe('Google Business Profile sync, two instances on PostgreSQL', () => {
  it('runs the source on one instance at a time, and both serve what it brought in', async () => {
    for (const instance of instances) {
      await expect
        .poll(() => publishedIds(instance.url), { timeout: 30_000 })
        .toEqual(['a', 'b', 'c']);
    }
    standIn.reviews.set('d', gbpReview('d', '2025-03-02T10:00:00.000Z'));
    for (const instance of instances) {
      await expect
        .poll(() => publishedIds(instance.url), { timeout: 30_000 })
        .toEqual(['a', 'b', 'c', 'd']);
    }
    // Several more runs, from either instance: never two at once.
    const seen = standIn.requests.length;
    await expect.poll(() => standIn.requests.length, { timeout: 30_000 }).toBeGreaterThan(seen + 6);
    expect(standIn.maxInFlight()).toBe(1);
    const synced = instances.map((i) => i.logs.filter((l) => l.includes('"source synced"')).length);
    expect(synced.reduce((a, b) => a + b)).toBeGreaterThan(2);
    const logs = instances.flatMap((i) => i.logs).join('\n');
    for (const secret of STAND_IN_SECRETS) expect(logs).not.toContain(secret);
  });
});
