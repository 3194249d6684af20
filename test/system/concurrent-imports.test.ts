/**
 * Two `dealer-reviews import` processes at once on one store, on PostgreSQL (a database of the
 * run's throwaway cluster) and on SQLite (one file): the second to commit finds that the first
 * committed meanwhile, imports again from what is committed, and both succeed. Their writes are
 * held until both are about to commit, so that they collide for certain.
 */
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/index.js';
import { gbpChunks } from '../../tools/bench/import-data.js';
import { runCommand, type CliResult } from '../import/helpers.js';
import { systemDatabaseUrl } from './database.js';

const PER_FILE = 500;

async function writeFile(path: string, chunks: Iterable<string>): Promise<void> {
  const out = createWriteStream(path);
  for (const chunk of chunks) out.write(chunk);
  await new Promise<void>((resolve, reject) =>
    out.end((err?: Error | null) => (err ? reject(err) : resolve())),
  );
}

/** Holds every write to the store until `release`, which waits until both imports wait. */
interface Hold {
  release(): Promise<void>;
}

const ENGINES: Record<
  'postgres' | 'sqlite',
  (dir: string) => Promise<{ url: string; hold(): Promise<Hold>; cleanup(): Promise<void> }>
> = {
  postgres: async () => {
    const { url, cleanup } = await systemDatabaseUrl('');
    return {
      url,
      cleanup,
      async hold() {
        const client = new pg.Client({ connectionString: url });
        await client.connect();
        await client.query('BEGIN');
        await client.query('LOCK TABLE reviews IN SHARE MODE');
        return {
          async release() {
            for (;;) {
              const { rows } = await client.query<{ n: number }>(
                `SELECT count(DISTINCT pid)::int AS n FROM pg_locks
                 WHERE NOT granted AND relation = 'reviews'::regclass`,
              );
              if (rows[0]!.n >= 2) break;
              await new Promise((r) => setTimeout(r, 50));
            }
            await client.query('ROLLBACK');
            await client.end();
          },
        };
      },
    };
  },
  sqlite: async (dir) => {
    const path = join(dir, 'reviews.db');
    return {
      url: `sqlite:${path}`,
      cleanup: async () => undefined,
      async hold() {
        const db = new Database(path);
        db.exec('BEGIN IMMEDIATE');
        return {
          async release() {
            // Nothing tells when an import waits for the lock: long enough for both to read
            // and stage their files, even on a busy machine.
            await new Promise((r) => setTimeout(r, 6_000));
            db.exec('ROLLBACK');
            db.close();
          },
        };
      },
    };
  },
};

describe.each(Object.keys(ENGINES) as (keyof typeof ENGINES)[])(
  'two imports at once on %s',
  (engine) => {
    let dir: string;
    let cleanup: (() => Promise<void>) | undefined;

    afterEach(async () => {
      await cleanup?.();
      rmSync(dir, { recursive: true, force: true });
    });

    it('both commit: the one that lost the race imports again, from what the other committed', async () => {
      dir = mkdtempSync(join(tmpdir(), 'concurrent-imports-'));
      const store = await ENGINES[engine](dir);
      cleanup = store.cleanup;
      const files = [join(dir, 'one.json'), join(dir, 'two.json')];
      await writeFile(files[0]!, gbpChunks(PER_FILE, 1));
      await writeFile(files[1]!, gbpChunks(PER_FILE, 2));
      // The schema first, as a running service leaves it.
      const check = openStore(store.url);
      await check.state();

      const held = await store.hold();
      const runs = files.map((file) =>
        runCommand('import', [file, '--json'], join(dir, 'unused.db'), {
          DATABASE_URL: store.url,
        }),
      );
      await held.release();
      const results: CliResult[] = await Promise.all(runs);

      for (const r of results) {
        expect(r.stderr).not.toMatch(/unexpected error/);
        expect(r.code).toBe(0);
        const summary = JSON.parse(r.stdout) as { inserted: number; committed: boolean };
        expect(summary).toMatchObject({ inserted: PER_FILE, committed: true });
      }
      // Exactly one of them started again, and said so.
      const again = results.filter((r) => r.stderr.includes('importing again (attempt 2 of 3)'));
      expect(again).toHaveLength(1);
      expect(await check.countReviews()).toBe(2 * PER_FILE);
      expect((await check.state()).version).toBe(2);
      await check.close();
    }, 120_000);

    it('gives up after 3 attempts while other writers keep committing: exit code 75, one line', async () => {
      dir = mkdtempSync(join(tmpdir(), 'concurrent-imports-'));
      const store = await ENGINES[engine](dir);
      cleanup = store.cleanup;
      const file = join(dir, 'one.json');
      await writeFile(file, gbpChunks(PER_FILE, 3));
      const writer = openStore(store.url);
      await writer.state();
      // Another writer commits a new version every few milliseconds, for as long as it runs.
      let stop = false;
      const hammering = (async () => {
        let n = 0;
        while (!stop) {
          await writer.transaction((tx) =>
            tx.bumpVersion(new Date(Date.UTC(2030, 0, 1, 0, 0, ++n)).toISOString()),
          );
          await new Promise((r) => setTimeout(r, 5));
        }
      })();
      const result = await runCommand('import', [file, '--json'], join(dir, 'unused.db'), {
        DATABASE_URL: store.url,
      }).finally(() => (stop = true));
      await hammering;
      expect(result.code).toBe(75);
      const lines = result.stderr.trim().split('\n');
      expect(lines.slice(0, 2)).toEqual([
        'import: another change was committed meanwhile; importing again (attempt 2 of 3)',
        'import: another change was committed meanwhile; importing again (attempt 3 of 3)',
      ]);
      expect(lines.slice(2)).toEqual([
        'import: other changes were committed during each of 3 attempts; nothing was imported, try again',
      ]);
      expect(JSON.parse(result.stdout)).toEqual({
        error:
          'other changes were committed during each of 3 attempts; nothing was imported, try again',
      });
      expect(await writer.countReviews()).toBe(0);
      await writer.close();
    }, 120_000);
  },
);
