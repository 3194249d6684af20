/**
 * Issue 31: sample data only on purpose, on both engines, through the commands and a running
 * service. With NODE_ENV=production an empty store starts empty; `dealer-reviews reset
 * --sample-only` removes every review of the sample dealership and nothing else (real reviews,
 * hidden ones, the business profile stay), as one new data version that the service publishes
 * like an import's prune (a removal per review in the change feed); `dealer-reviews hidden` lists
 * the hidden reviews with who, when and why.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { reviewId } from '../../src/domain/ids.js';
import { ReviewSource } from '../../src/domain/review.js';
import { ingest } from '../../src/import/ingest.js';
import { loadSampleFile, samplePath } from '../../src/import/sample.js';
import { openStore } from '../../src/store/index.js';
import { waitUntil } from '../helpers/child-service.js';
import { testReviews } from '../helpers/fixtures.js';
import { runCommand, type CliResult } from '../import/helpers.js';
import { systemDatabaseUrl } from './database.js';
import { gone, killTree, startTree, type Started } from './stopping.js';

const ROOT = join(import.meta.dirname, '..', '..');

const dir = mkdtempSync(join(tmpdir(), 'going-live-'));
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const c of cleanups) await c();
  rmSync(dir, { recursive: true, force: true });
});

const ENGINES = {
  sqlite: async (name: string) => `sqlite:${join(dir, `${name}.db`)}`,
  postgres: async () => {
    const db = await systemDatabaseUrl(dir);
    cleanups.push(db.cleanup);
    return db.url;
  },
};

/** `dealer-reviews <command>` on the store at `url`. */
function cli(url: string, command: string, ...args: string[]): Promise<CliResult> {
  return runCommand(command, args, '', { DATABASE_URL: url });
}

/** The built service on the store at `url` (`env` added), ready; stopped with SIGTERM by `stop`. */
async function serve(url: string, env: Record<string, string> = {}) {
  const s = await startTree(process.execPath, ['dist/src/main.js'], {
    cwd: ROOT,
    env: { DATABASE_URL: url, SAMPLE_DATA: 'off', DATA_POLL_MS: '100', ...env },
  });
  return {
    ...s,
    async stop() {
      s.child.kill('SIGTERM');
      await gone(s).finally(() => killTree(s));
    },
  };
}

const health = async (s: Started) =>
  (await (await fetch(`${s.url}/healthz`)).json()) as { dataVersion: number; reviews: number };

/** The whole change feed of the service, page after page. */
async function changeFeed(url: string): Promise<{ type: string; reason?: string }[]> {
  const all: { type: string; reason?: string }[] = [];
  let after = '';
  for (;;) {
    const page = (await (
      await fetch(`${url}/api/reviews/changes?limit=1000${after && `&after=${after}`}`)
    ).json()) as {
      changes: { type: string; reason?: string }[];
      nextCursor: string;
      more: boolean;
    };
    all.push(...page.changes);
    if (!page.more) return all;
    after = encodeURIComponent(page.nextCursor);
  }
}

/** Two real reviews (a source and ids the sample does not use). */
const REAL = testReviews(2, 7).map((r) => ReviewSource.parse(r));

describe.each(Object.keys(ENGINES) as (keyof typeof ENGINES)[])('on %s', (engine) => {
  it('with NODE_ENV=production, an empty store starts empty (SAMPLE_DATA unset)', async () => {
    const url = await ENGINES[engine]('empty');
    const s = await serve(url, { NODE_ENV: 'production', SAMPLE_DATA: '' });
    try {
      expect(await health(s)).toMatchObject({ reviews: 0 });
    } finally {
      await s.stop();
    }
  });

  it('reset --sample-only removes the sample reviews and nothing else, published like a prune; hidden lists who, when and why', async () => {
    const url = await ENGINES[engine]('live');
    const store = openStore(url);
    try {
      await loadSampleFile(store, samplePath());
      await ingest(store, { reviews: REAL });
    } finally {
      await store.close();
    }
    const s = await serve(url);
    try {
      expect(await health(s)).toMatchObject({ reviews: 1802 });
      const realHidden = reviewId(REAL[1]!.source, REAL[1]!.sourceReviewId);
      const hid = await cli(url, 'remove', realHidden, '--reason', 'not a customer', '--by', 'ops');
      expect(hid.code, hid.stderr).toBe(0);
      const sampleId = (
        (await (await fetch(`${s.url}/reviews.json`)).json()) as {
          reviews: { id: string }[];
        }
      ).reviews.find((r) => r.id !== reviewId(REAL[0]!.source, REAL[0]!.sourceReviewId))!.id;
      expect((await cli(url, 'remove', sampleId, '--reason', 'test')).code).toBe(0);

      const hidden = await cli(url, 'hidden', '--json');
      expect(hidden.code, hidden.stderr).toBe(0);
      const rows = hidden.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as object);
      expect(rows).toHaveLength(2);
      expect(rows).toContainEqual({
        reviewId: realHidden,
        hiddenAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        by: 'ops',
        reason: 'not a customer',
      });
      const table = await cli(url, 'hidden');
      expect(table.stdout).toMatch(/^review id +hidden at +by +reason\n/);
      expect(table.stdout).toContain('not a customer');

      const dry = await cli(url, 'reset', '--sample-only', '--dry-run');
      expect(JSON.parse(dry.stdout)).toEqual({
        event: 'sample.found',
        reviews: 1800,
        version: null,
        sampleBusiness: true,
      });
      // The version the reset bumps is the store's: wait until the service has caught up with
      // both removals, or its health still shows the version before the second one.
      await waitUntil(
        async () => (await health(s)).reviews === 1800,
        'the removals to be published',
      );
      const before = await health(s);
      const reset = await cli(url, 'reset', '--sample-only');
      expect(reset.code, reset.stderr).toBe(0);
      expect(JSON.parse(reset.stdout)).toEqual({
        event: 'sample.removed',
        reviews: 1800,
        version: before.dataVersion + 1,
        sampleBusiness: true,
      });
      expect(reset.stderr).toMatch(/the business profile is still the sample dealership/);

      // The service publishes it: the one real review left visible, a removal for each sample
      // review that was published (the hidden one had left the feed already).
      await waitUntil(async () => (await health(s)).reviews === 1, 'the reset to be published');
      const changes = await changeFeed(s.url);
      expect(changes.filter((c) => c.type === 'removal' && c.reason === 'deleted')).toHaveLength(
        1799,
      );
      expect(changes.filter((c) => c.type === 'upsert')).toHaveLength(1);
      const reopened = openStore(url);
      try {
        // The two real reviews are still stored (one of them hidden), and hidden stays hidden.
        expect(await reopened.countReviews()).toBe(2);
      } finally {
        await reopened.close();
      }
      const again = await cli(url, 'reset', '--sample-only');
      expect(JSON.parse(again.stdout)).toMatchObject({ reviews: 0, version: null });
      expect((await cli(url, 'reset')).code).toBe(2);
    } finally {
      await s.stop();
    }
  });
});
