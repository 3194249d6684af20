import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import type { Review } from '../../src/domain/review.js';
import { createLogger } from '../../src/logger.js';
import { startService } from '../../src/service.js';
import { testBusiness, testReviews } from '../helpers/fixtures.js';
import { http } from '../helpers/http.js';
import { seedStore } from '../helpers/service.js';
import { readPublished, runCli } from '../import/helpers.js';

/**
 * Records that older code derived: what a store holds after an upgrade whose derivation changed.
 * Here the old code knew no staff (no mentions) and stamped version 0.
 */
function makeStale(db: string): number {
  const sqlite = new Database(db);
  try {
    const rows = sqlite.prepare('SELECT id, public_json FROM reviews').all() as {
      id: string;
      public_json: string;
    }[];
    const update = sqlite.prepare(
      'UPDATE reviews SET public_json = ?, derived_version = 0 WHERE id = ?',
    );
    let stale = 0;
    for (const row of rows) {
      const review = JSON.parse(row.public_json) as Review;
      if (review.mentions.technicians.length === 0) continue;
      review.mentions = { technicians: [], services: [] };
      update.run(JSON.stringify(review), row.id);
      stale++;
    }
    return stale;
  } finally {
    sqlite.close();
  }
}

let dir: string;
let db: string;
let fresh: Map<string, Review>;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'stale-'));
  db = join(dir, 'reviews.db');
  await seedStore(`sqlite:${db}`, testBusiness(), testReviews(40));
  fresh = (await readPublished(db)).reviews;
  expect(makeStale(db)).toBeGreaterThan(5);
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('records derived by older code', () => {
  it('are derived again before the service publishes, never served', async () => {
    const config = loadConfig({
      PORT: '0',
      HOST: '127.0.0.1',
      DATABASE_URL: `sqlite:${db}`,
      SAMPLE_DATA: 'off',
      LOG_LEVEL: 'silent',
    });
    const service = await startService(config, createLogger('silent'));
    try {
      const served = (await http(`${service.url}/reviews.json`)).json<{ reviews: Review[] }>();
      expect(served.reviews).toHaveLength(fresh.size);
      for (const review of served.reviews) expect(review).toEqual(fresh.get(review.sourceReviewId));
    } finally {
      await service.close();
    }
  });

  it('are derived again by an import, whatever the file holds', async () => {
    const before = await readPublished(db);
    const file = join(dir, 'one.csv');
    writeFileSync(
      file,
      'source,review_id,rating,date,author,text\ngoogle,extra-1,5,2025-06-01T12:00:00Z,Ann,Fine\n',
    );
    const run = await runCli([file], db);
    expect(run.code, run.stderr).toBe(0);
    const after = await readPublished(db);
    expect(after.version).toBe(before.version + 1);
    for (const [id, review] of fresh) expect(after.reviews.get(id)).toEqual(review);
  });
});
