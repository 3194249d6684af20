import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname, userInfo } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { reviewId } from '../../src/domain/ids.js';
import { openStore } from '../../src/store/index.js';
import { fixture, importJson, readPublished, runCommand, tempDir } from './helpers.js';

let dir: string;
let db: string;
let cleanup: () => void;

beforeEach(async () => {
  ({ dir, cleanup } = tempDir());
  db = join(dir, 'reviews.db');
  await importJson([fixture('takeout')], db);
});
afterEach(() => cleanup());

/** The Google review of the Takeout fixture that an operator takes down in these tests. */
const KEY = 'AbFvOqmT1a2b3c4d5e6f7g8h9i0jKLMNOPqrstuv';
const ID = reviewId('google', KEY);

const remove = (args: readonly string[], env: NodeJS.ProcessEnv = {}) =>
  runCommand('remove', args, db, env);

/** The one JSON line a successful `remove` prints. */
function logLine(stdout: string): Record<string, unknown> {
  const lines = stdout.trim().split('\n');
  expect(lines).toHaveLength(1);
  return JSON.parse(lines[0]!) as Record<string, unknown>;
}

async function moderationLog(reviewId: string) {
  const store = openStore(`sqlite:${db}`);
  try {
    return await store.moderation.log(reviewId);
  } finally {
    await store.close();
  }
}

describe('dealer-reviews remove: the command line', () => {
  it('prints its usage for --help and exits 0', async () => {
    const result = await remove(['--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^Usage: dealer-reviews remove <review-id>/);
    expect(result.stdout).toMatch(/--undo/);
  });

  it('is listed among the commands of dealer-reviews', async () => {
    const result = await runCommand('--help', [], db);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^ {2}remove {4}take one review out of publication/m);
  });

  it.each([
    ['no review id', [], /give exactly one review id/],
    ['two review ids', [ID, ID], /give exactly one review id/],
    ['an id that is not a UUID', ['r-1'], /the review id must be a UUID/],
    ['an unknown option', [ID, '--force'], /Unknown option '--force'/],
    ['an empty reason', [ID, '--reason', ' '], /--reason must not be empty/],
    ['a reason of two lines', [ID, '--reason', 'a\nb'], /--reason must be one line/],
    ['a reason too long', [ID, '--reason', 'x'.repeat(501)], /at most 500 characters/],
  ])('exits 2 with the usage for %s, changing nothing', async (_name, args, message) => {
    const before = await readPublished(db);
    const result = await remove(args);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(result.stderr).toMatch(/Usage: dealer-reviews remove/);
    expect(result.stdout).toBe('');
    expect((await readPublished(db)).version).toBe(before.version);
  });

  it('exits 1 with one line for an id no review has, changing nothing', async () => {
    const before = await readPublished(db);
    const unknown = reviewId('google', 'never-imported');
    const result = await remove([unknown, '--reason', 'spam']);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(`remove: no review has the id ${unknown}; nothing changed\n`);
    expect((await readPublished(db)).version).toBe(before.version);
    expect(await moderationLog(unknown)).toEqual([]);
  });

  it.each([
    [
      'a file that is not a database',
      'notes.db',
      /^remove: cannot open the store DATABASE_URL=sqlite:.*notes\.db: file is not a database \(SQLITE_NOTADB\)\n$/,
    ],
    [
      'a store that does not exist',
      'missing.db',
      /^remove: .*missing\.db: no such file \(DATABASE_URL\)\n$/,
    ],
  ])('exits 1 with one line for %s, creating nothing', async (_name, file, message) => {
    const path = join(dir, file);
    if (file === 'notes.db') writeFileSync(path, 'plain text, not SQLite. '.repeat(40));
    const result = await runCommand('remove', [ID], path);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(message);
    expect(result.stderr).not.toMatch(/unexpected error/);
    if (file === 'missing.db') expect(existsSync(path)).toBe(false);
  });

  it('reads only DATABASE_URL: a bad setting of the service does not stop it', async () => {
    const result = await remove([ID], { PORT: 'not-a-port', WEBSUB_TIMEOUT_MS: '1' });
    expect(result.code, result.stderr).toBe(0);
  });
});

describe('dealer-reviews remove: hiding a review', () => {
  it('takes the review out of the published data as a new version, logged on stdout and in the store', async () => {
    const before = await readPublished(db);
    expect(before.reviews.has(KEY)).toBe(true);
    const result = await remove([ID.toUpperCase(), '--reason', 'Posted by a competitor']);
    expect(result.code, result.stderr).toBe(0);
    const after = await readPublished(db);
    expect(after.version).toBe(before.version + 1);
    expect(after.reviews.has(KEY)).toBe(false);
    expect(after.reviews.size).toBe(before.reviews.size - 1);
    const line = logLine(result.stdout);
    const actor = `${userInfo().username}@${hostname()}`;
    expect(line).toEqual({
      event: 'review.hide',
      reviewId: ID,
      action: 'hide',
      reason: 'Posted by a competitor',
      actor,
      at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
      version: after.version,
    });
    expect(await moderationLog(ID)).toEqual([
      { reviewId: ID, action: 'hide', reason: 'Posted by a competitor', actor, at: line.at },
    ]);
  });

  it('changes nothing when the review is already hidden, and exits 0', async () => {
    await remove([ID]);
    const before = await readPublished(db);
    const result = await remove([ID, '--reason', 'again']);
    expect(result.code).toBe(0);
    expect(logLine(result.stdout)).toEqual({
      event: 'review.hide.unchanged',
      reviewId: ID,
      version: null,
    });
    expect((await readPublished(db)).version).toBe(before.version);
    expect(await moderationLog(ID)).toHaveLength(1);
  });

  it('keeps the review hidden when the same export is imported again, and says so', async () => {
    await remove([ID]);
    const before = await readPublished(db);
    const { summary } = await importJson([fixture('takeout')], db);
    expect(summary).toMatchObject({ unchanged: 5, hidden: 1, version: null });
    const after = await readPublished(db);
    expect(after.reviews.has(KEY)).toBe(false);
    expect(after.version).toBe(before.version);
  });

  it('keeps it hidden through an edit at the source, a --prune that drops it and a later import', async () => {
    await remove([ID]);
    const file = join(dir, 'reviews.json');
    const doc = JSON.parse(readFileSync(fixture('takeout/location-1/reviews.json'), 'utf8')) as {
      reviews: { reviewId: string; comment: string }[];
    };
    const full = structuredClone(doc);
    full.reviews.find((r) => r.reviewId === KEY)!.comment = 'Edited at the source.';
    writeFileSync(file, JSON.stringify(full));
    expect((await importJson([file], db)).summary).toMatchObject({ updated: 1, hidden: 1 });
    writeFileSync(
      file,
      JSON.stringify({ ...doc, reviews: doc.reviews.filter((r) => r.reviewId !== KEY) }),
    );
    expect((await importJson([file, '--prune'], db)).summary).toMatchObject({ pruned: 1 });
    const { summary } = await importJson([fixture('takeout')], db);
    expect(summary).toMatchObject({ inserted: 1, hidden: 1 });
    expect((await readPublished(db)).reviews.has(KEY)).toBe(false);
    // The human summary says so too.
    const table = await runCommand('import', [fixture('takeout')], db);
    expect(table.stdout).toMatch(/kept hidden +1\n/);
  });

  it('--undo publishes the review again as a new version, logged', async () => {
    await remove([ID, '--reason', 'Under review', '--by', 'Ana (marketing)']);
    const hidden = await readPublished(db);
    const result = await remove([ID, '--undo', '--reason', 'Customer confirmed it']);
    expect(result.code, result.stderr).toBe(0);
    const after = await readPublished(db);
    expect(after.version).toBe(hidden.version + 1);
    expect(after.reviews.has(KEY)).toBe(true);
    expect(logLine(result.stdout)).toMatchObject({
      event: 'review.unhide',
      version: after.version,
    });
    expect((await moderationLog(ID)).map((r) => [r.action, r.reason, r.actor])).toEqual([
      ['hide', 'Under review', 'Ana (marketing)'],
      ['unhide', 'Customer confirmed it', `${userInfo().username}@${hostname()}`],
    ]);
    const again = await remove([ID, '--undo']);
    expect(again.code).toBe(0);
    expect(logLine(again.stdout)).toMatchObject({ event: 'review.unhide.unchanged' });
  });
});
