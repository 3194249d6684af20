/**
 * The change feed on PostgreSQL with two instances of the service (processes) on one database:
 * the example client of docs/api.md, its requests spread over both instances in turn, converges
 * on `/reviews.json` through inserts, edits, a prune, a removal and an undo; and a cursor of one
 * instance is a cursor of the other.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  importRows,
  liveChanges,
  publishedReviews,
  runMirror,
  settled,
} from '../helpers/changes.js';
import { startChildService, type ChildService } from '../helpers/child-service.js';
import { testBusiness, testReviews } from '../helpers/fixtures.js';
import { http } from '../helpers/http.js';
import { throwawayDatabase } from '../helpers/pg-database.js';
import { tempDir } from '../import/helpers.js';
import { Business } from '../../src/domain/business.js';
import { ingest } from '../../src/import/ingest.js';
import { openStore } from '../../src/store/index.js';

const adminUrl = inject('pgAdminUrl');
const ROWS = testReviews(12);

let database: Awaited<ReturnType<typeof throwawayDatabase>>;
let pgUrl: string;
let temp: ReturnType<typeof tempDir>;
const instances: ChildService[] = [];

beforeAll(async () => {
  database = await throwawayDatabase(adminUrl, `changes_${process.pid}`);
  pgUrl = database.url;
  temp = tempDir();
  const store = openStore(pgUrl);
  await ingest(store, { business: Business.parse(testBusiness()), reviews: [] });
  await store.close();
  await importRows(pgUrl, ROWS);
  // One after the other: two first builds at once on a busy machine outlast the start's wait.
  for (let i = 0; i < 2; i++) instances.push(await startChildService({ databaseUrl: pgUrl }));
}, 120_000);
afterAll(async () => {
  await Promise.all(instances.map((i) => i.stop()));
  await database.drop();
  temp.cleanup();
});

describe('the change feed on PostgreSQL, two instances', () => {
  it('gives the same pages and cursors on both instances', async () => {
    const bases = instances.map((i) => i.url);
    await settled(pgUrl, bases);
    const [a, b] = await Promise.all(
      bases.map((base) => http(`${base}/api/reviews/changes?limit=5`)),
    );
    expect(a!.status).toBe(200);
    expect(a!.text).toBe(b!.text);
    const cursor = a!.json<{ nextCursor: string }>().nextCursor;
    const [c, d] = await Promise.all(
      bases.map((base) => http(`${base}/api/reviews/changes?after=${cursor}`)),
    );
    expect(c!.text).toBe(d!.text);
  });

  it('keeps the example client in step with /reviews.json, its pages fetched from both instances in turn', async () => {
    const bases = instances.map((i) => i.url);
    const copyFile = `${temp.dir}/mirror.json`;
    await settled(pgUrl, bases);
    expect(await runMirror(copyFile, bases)).toEqual(await publishedReviews(bases[0]!));
    await liveChanges(pgUrl, ROWS);
    await settled(pgUrl, bases);
    const copy = await runMirror(copyFile, bases);
    expect(copy).toEqual(await publishedReviews(bases[0]!));
    expect(copy).toEqual(await publishedReviews(bases[1]!));
    expect(Object.keys(copy)).toHaveLength(ROWS.length);
  }, 120_000);
});
