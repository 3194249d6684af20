import Database from 'better-sqlite3';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { getPriority } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BACKGROUND_NICENESS } from '../../src/platform/priority.js';
import { testBusiness } from '../helpers/fixtures.js';
import { BIN, ROOT, spawnCli, tempDir } from '../import/helpers.js';
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

/**
 * Runs an import of a business profile, started by `start(file, db)`, held alive at its commit by
 * another connection's write lock while `check(pid)` looks at it; then lets it finish (exit 0).
 */
async function withHeldImport(
  start: (file: string, db: string) => ChildProcess,
  check: (pid: number) => Promise<void>,
): Promise<void> {
  const { dir, cleanup } = tempDir();
  try {
    const db = join(dir, 'reviews.db');
    const file = join(dir, 'business.json');
    writeFileSync(file, JSON.stringify(testBusiness()));
    const holder = new Database(db);
    holder.pragma('journal_mode = WAL');
    holder.exec('CREATE TABLE IF NOT EXISTS hold (x)');
    holder.exec('BEGIN IMMEDIATE');
    const child = start(file, db);
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    try {
      await check(child.pid!);
    } finally {
      holder.exec('ROLLBACK');
      holder.close();
    }
    expect(await exited).toBe(0);
  } finally {
    cleanup();
  }
}

describe.runIf(linux)('an import runs at a lower priority', () => {
  it('an import runs niced, every thread of it', async () => {
    await withHeldImport(
      (file, db) => spawnCli([file], db),
      async (pid) => {
        const nices = await waitUntil(() => {
          const n = processNiceness(pid);
          return n.length > 1 && n.every((x) => x === BACKGROUND_NICENESS) ? n : false;
        }, 'the import to lower its priority');
        expect(nices.every((x) => x === BACKGROUND_NICENESS)).toBe(true);
      },
    );
  });

  it('the launcher starts an import niced from its first instruction, and nothing else', () => {
    const { dir, cleanup } = tempDir();
    try {
      // A \`node\` first on the PATH that prints the niceness it was started with: what the
      // launcher execs, before any of Node's own start-up.
      const shim = join(dir, 'node');
      writeFileSync(shim, '#!/bin/sh\nnice\n');
      chmodSync(shim, 0o755);
      // Linked, as npm links it into node_modules/.bin.
      const link = join(dir, 'dealer-reviews');
      symlinkSync(join(ROOT, 'bin/dealer-reviews'), link);
      const niceness = (command: string) => {
        const r = spawnSync(link, [command, 'x'], {
          encoding: 'utf8',
          env: { ...process.env, PATH: `${dir}:${process.env.PATH}` },
        });
        expect(r.status, r.stderr).toBe(0);
        return Number(r.stdout.trim());
      };
      const own = getPriority();
      expect(niceness('import')).toBe(Math.min(19, own + BACKGROUND_NICENESS));
      expect(niceness('insights')).toBe(own);
    } finally {
      cleanup();
    }
  });

  it('never raises a priority an operator lowered further', async () => {
    await withHeldImport(
      // As an operator who wants it lower still: `nice -n 15 node dist/src/bin.js import …`.
      (file, db) =>
        spawn('nice', ['-n', '15', process.execPath, BIN, 'import', file], {
          env: { ...process.env, DATABASE_URL: `sqlite:${db}`, BASE_URL: '' },
          stdio: 'ignore',
        }),
      async (pid) => {
        // Long enough for the import to have loaded and lowered whatever it would lower.
        await waitUntil(() => processNiceness(pid).length > 4, 'the import to start');
        await new Promise((r) => setTimeout(r, 500));
        expect(new Set(processNiceness(pid))).toEqual(new Set([Math.max(15, getPriority())]));
      },
    );
  });
});
