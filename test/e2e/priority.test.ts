import Database from 'better-sqlite3';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BACKGROUND_NICENESS, threadNiceness } from '../../src/platform/priority.js';
import { testBusiness, testReviews } from '../helpers/fixtures.js';
import { spawnCli, tempDir } from '../import/helpers.js';
import { waitUntil } from '../helpers/child-service.js';
import { startTestService } from '../helpers/service.js';

/**
 * Background work yields the cores to the event loop: the build worker's thread and an import
 * run at a lower priority (Linux, where each thread has its own niceness).
 */
const linux = process.platform === 'linux';

/** The threads of this process at the background niceness. */
function nicedThreads(): number[] {
  return readdirSync('/proc/self/task')
    .map(Number)
    .filter((tid) => threadNiceness(tid) === BACKGROUND_NICENESS);
}

/** The niceness of every thread of another process. */
function processNiceness(pid: number): number[] {
  return readdirSync(`/proc/${pid}/task`).map((tid) => {
    const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
  });
}

describe.runIf(linux)('background work runs at a lower priority', () => {
  it('the build worker thread of the service is niced, the event loop is not', async () => {
    const before = nicedThreads();
    const svc = await startTestService({ business: testBusiness(), reviews: testReviews(20) });
    try {
      const added = nicedThreads().filter((tid) => !before.includes(tid));
      expect(added.length).toBeGreaterThanOrEqual(1);
      expect(threadNiceness(process.pid)).toBe(0);
    } finally {
      await svc.stop();
    }
  });

  it('an import runs niced, every thread of it', async () => {
    const { dir, cleanup } = tempDir();
    try {
      const db = join(dir, 'reviews.db');
      const file = join(dir, 'business.json');
      writeFileSync(file, JSON.stringify(testBusiness()));
      // Hold the write lock so that the import stays alive, waiting to commit.
      const holder = new Database(db);
      holder.pragma('journal_mode = WAL');
      holder.exec('CREATE TABLE IF NOT EXISTS hold (x)');
      holder.exec('BEGIN IMMEDIATE');
      const child = spawnCli([file], db);
      const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
      try {
        const nices = await waitUntil(() => {
          const n = processNiceness(child.pid!);
          return n.length > 1 && n.every((x) => x === BACKGROUND_NICENESS) ? n : false;
        }, 'the import to lower its priority');
        expect(nices.every((x) => x === BACKGROUND_NICENESS)).toBe(true);
      } finally {
        holder.exec('ROLLBACK');
        holder.close();
      }
      expect(await exited).toBe(0);
    } finally {
      cleanup();
    }
  });
});
