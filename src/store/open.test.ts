import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isServiceError } from '../platform/errors.js';
import { openExistingStoreWithin, openServiceStore, STORE_OPEN_FAILED } from './index.js';

/**
 * Stores that cannot be opened (issue 15): whatever the reason, the opener ends within its
 * deadline with one line naming the store and the reason in SQLite's words, never a hang or
 * "[object Object]". test/e2e/config.test.ts shows the same line as the service's and the
 * commands' exit, for some of these as processes.
 */
describe('a store that cannot be opened', () => {
  let dir: string;
  const stores: [string, () => string][] = [
    // Node's recursive mkdir spun for ever on both: start-up hung with no message.
    ['a folder under /proc', () => '/proc/nope/x.db'],
    // SQLite cannot create a file there: its reason once read "[object Object] (SQLITE_CANTOPEN)".
    ['a file SQLite cannot create (/proc/x.db)', () => '/proc/x.db'],
    ['a folder behind a broken symbolic link', () => join(dir, 'broken-link', 'x.db')],
    ['a folder that is a file', () => join(dir, 'a-file', 'x.db')],
    ['a folder as the database file', () => join(dir, 'a-folder')],
    ['a named pipe as the database file (reading it would block)', () => join(dir, 'a-pipe')],
    ['a file that is not a SQLite database', () => join(dir, 'not-a-database.db')],
  ];

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'reviews-unopenable-'));
    symlinkSync(join(dir, 'nothing-here'), join(dir, 'broken-link'));
    writeFileSync(join(dir, 'a-file'), 'x');
    mkdirSync(join(dir, 'a-folder'));
    expect(spawnSync('mkfifo', [join(dir, 'a-pipe')]).status).toBe(0);
    writeFileSync(join(dir, 'not-a-database.db'), 'plain text, not SQLite. '.repeat(40));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** What opening failed with: it must fail. */
  const failure = async (opening: Promise<{ close(): Promise<void> }>): Promise<Error> => {
    const outcome = await opening.then(
      async (store) => {
        await store.close();
        return null;
      },
      (err: unknown) => err as Error,
    );
    if (!outcome) throw new Error('the store opened');
    return outcome;
  };

  it.each(stores)('%s: the service gets one line with the reason', async (_name, path) => {
    const url = `sqlite:${path()}`;
    const err = await failure(openServiceStore(url, 10_000));
    expect(isServiceError(err, STORE_OPEN_FAILED)).toBe(true);
    expect(err.message.split('\n')).toHaveLength(1);
    const prefix = `cannot open the store DATABASE_URL=${url}: `;
    expect(err.message.startsWith(prefix), err.message).toBe(true);
    // The reason, in words (SQLite's with its code, or the path and what it is); it once read
    // "[object Object]".
    const reason = err.message.slice(prefix.length);
    expect(reason).not.toMatch(/\[object Object\]/);
    expect(reason).toMatch(/^[A-Za-z/]\S* .*[a-z].*\S$/);
  });

  it.each(stores)(
    '%s: a command that reads a store says what is wrong in one line',
    async (_name, path) => {
      const err = await failure(
        openExistingStoreWithin(`sqlite:${path()}`, 'DATABASE_URL', 10_000),
      );
      expect(isServiceError(err, STORE_OPEN_FAILED)).toBe(true);
      expect(err.message.split('\n')).toHaveLength(1);
      expect(err.message).not.toMatch(/\[object Object\]/);
      // A path that names no file is said so (such a command never creates a store); a file that
      // cannot be opened as a store gets the store's reason.
      const url = `sqlite:${path()}`;
      expect(err.message).toMatch(
        existsSync(path())
          ? `cannot open the store DATABASE_URL=${url}: `
          : `${path()}: no such file (DATABASE_URL)`,
      );
    },
  );
});
