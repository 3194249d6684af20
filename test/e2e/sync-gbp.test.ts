import { spawn, spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { reviewId } from '../../src/domain/ids.js';
import { gbpEnv, gbpReview, startGbpStandIn, type GbpStandIn } from '../helpers/gbp-stand-in.js';
import { startTestService, type TestService } from '../helpers/service.js';
import { ROOT } from '../helpers/tools.js';

/** Issue 30: a running service picks up Google's new, edited and removed reviews by itself. */
describe('Google Business Profile sync (against the local stand-in)', () => {
  let standIn: GbpStandIn;
  let service: TestService;
  let env: Record<string, string>;

  beforeEach(async () => {
    standIn = await startGbpStandIn();
    for (const id of ['a', 'b', 'c']) {
      standIn.reviews.set(id, gbpReview(id, '2025-03-01T10:00:00.000Z'));
    }
    env = { ...gbpEnv(standIn), SYNC_INTERVAL_SECONDS: '1' };
    service = await startTestService({ env });
  });
  afterEach(async () => {
    await service.stop();
    await standIn.close();
  });

  const get = async (path: string) => (await fetch(`${service.url}${path}`)).json();
  const published = async (): Promise<Map<string, string>> => {
    const doc = (await get('/reviews.json')) as {
      reviews: { sourceReviewId: string; reviewBody: string }[];
    };
    return new Map(doc.reviews.map((r) => [r.sourceReviewId, r.reviewBody]));
  };

  /** `dealer-reviews <command>` as a process beside the service, on its store. */
  const command = (args: string[]) =>
    new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = spawn(process.execPath, [join(ROOT, 'dist/src/bin.js'), ...args], {
        cwd: ROOT,
        env: { PATH: process.env.PATH, DATABASE_URL: service.databaseUrl, ...env },
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d: Buffer) => (stdout += String(d)));
      child.stderr.on('data', (d: Buffer) => (stderr += String(d)));
      child.on('close', (code) => resolve({ code, stdout, stderr }));
    });
  const syncCommand = (args: string[]) => command(['sync', ...args]);
  const removals = async () => {
    const feed = (await get('/api/reviews/changes?limit=100')) as {
      changes: { type: string; id?: string; reason?: string }[];
    };
    return feed.changes.filter((c) => c.type === 'removal').map((c) => [c.id, c.reason]);
  };

  // Several commands and service runs under a loaded machine: more than the default 30 s.
  it('serves new and edited reviews on its own, lists the source in /healthz, and sync --full removes', async () => {
    await expect.poll(async () => (await published()).size, { timeout: 15_000 }).toBe(3);
    // The run's reviews are published a moment before its end is recorded: poll for it too.
    const health = async () => (await get('/healthz')) as { sources: Record<string, unknown>[] };
    await expect
      .poll(async () => (await health()).sources, { timeout: 15_000 })
      .toEqual([
        {
          name: 'gbp',
          lastSuccessAt: expect.any(String),
          lastError: null,
          nextRunAt: expect.any(String),
        },
      ]);
    expect(JSON.stringify(await health())).not.toContain('stand-in');

    standIn.reviews.set('b', {
      ...gbpReview('b', '2025-03-01T10:00:00.000Z'),
      comment: 'Edited at Google.',
      updateTime: '2025-03-05T10:00:00.000Z',
    });
    standIn.reviews.set('d', gbpReview('d', '2025-03-06T10:00:00.000Z'));
    await expect
      .poll(async () => [...(await published()).entries()].sort(), { timeout: 15_000 })
      .toEqual([
        ['a', 'Bought a car, review a.'],
        ['b', 'Edited at Google.'],
        ['c', 'Bought a car, review c.'],
        ['d', 'Bought a car, review d.'],
      ]);

    // Google removes one: only a full pass finds it out, here on the command line.
    standIn.reviews.delete('c');
    const run = await syncCommand(['--full', '--json']);
    expect(run.code, run.stderr).toBe(0);
    const report = JSON.parse(run.stdout) as {
      sources: { name: string; report: { pruned: number } }[];
    };
    expect(report.sources).toMatchObject([
      { name: 'gbp', status: 'ran', full: true, report: { pruned: 1 } },
    ]);
    await expect
      .poll(async () => [...(await published()).keys()].sort(), { timeout: 15_000 })
      .toEqual(['a', 'b', 'd']);
    expect(run.stdout + run.stderr).not.toMatch(
      /stand-in-client-secret|stand-in-refresh-token|ya29\./,
    );
    // The change feed tells a mirror: no longer in its source.
    const c = reviewId('google', 'c');
    expect(await removals()).toEqual([[c, 'deleted']]);

    // The operator removes a; Google shows c again: the next full pass brings c back, never a.
    const a = reviewId('google', 'a');
    expect((await command(['remove', a, '--reason', 'spam'])).code).toBe(0);
    standIn.reviews.set('c', gbpReview('c', '2025-03-01T10:00:00.000Z'));
    const back = await syncCommand(['--full', '--json']);
    expect(back.code, back.stderr).toBe(0);
    expect(JSON.parse(back.stdout)).toMatchObject({
      sources: [{ name: 'gbp', restored: 1, report: { pruned: 0 } }],
    });
    await expect
      .poll(async () => [...(await published()).keys()].sort(), { timeout: 15_000 })
      .toEqual(['b', 'c', 'd']);
    expect(await removals()).toEqual([[a, 'hidden']]);
  }, 120_000);
});

describe('a bad Google Business Profile setting', () => {
  it.each([
    [
      { GBP_LOCATION: 'locations/5678' },
      /^dealer-reviews: invalid GBP_LOCATION="locations\/5678": /,
    ],
    [
      { GBP_REFRESH_TOKEN: '', GBP_REFRESH_TOKEN_FILE: '/nonexistent/refresh-token' },
      /^dealer-reviews: invalid GBP_REFRESH_TOKEN_FILE="\/nonexistent\/refresh-token": cannot be read \(ENOENT\)$/,
    ],
    [{ GBP_CLIENT_SECRET: '' }, /needs GBP_CLIENT_SECRET or GBP_CLIENT_SECRET_FILE$/],
  ])('%o stops start-up with one line and exit code 78', (change, line) => {
    const base = {
      GBP_LOCATION: 'accounts/1/locations/2',
      GBP_CLIENT_ID: 'id',
      GBP_CLIENT_SECRET: 'never-shown-secret',
      GBP_REFRESH_TOKEN: 'never-shown-token',
    };
    const run = spawnSync(process.execPath, [join(ROOT, 'dist/src/main.js')], {
      env: { PATH: process.env.PATH, SAMPLE_DATA: 'off', PORT: '0', ...base, ...change },
      // Refused before any store is opened; a tmpdir cwd all the same.
      cwd: tmpdir(),
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(run.status, run.stderr).toBe(78);
    const lines = run.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(line);
    expect(run.stderr + run.stdout).not.toMatch(/never-shown/);
  });
});
