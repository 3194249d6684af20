import Database from 'better-sqlite3';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BACKGROUND_NICENESS } from '../../src/platform/priority.js';
import { testBusiness } from '../helpers/fixtures.js';
import { spawnCli, tempDir } from '../import/helpers.js';
import { waitUntil } from '../helpers/child-service.js';

/**
 * An import yields the cores to the service it runs beside: every thread of it runs at a lower
 * priority (Linux, where each thread has its own niceness). The build worker does not (measured
 * in docs/benchmarks.md: at niceness 10 on a shared machine its rebuilds took twice as long).
 */
const linux = process.platform === 'linux';

/** The niceness of every thread of another process. */
function processNiceness(pid: number): number[] {
  return readdirSync(`/proc/${pid}/task`).map((tid) => {
    const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
  });
}

describe.runIf(linux)('an import runs at a lower priority', () => {
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
