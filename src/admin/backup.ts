import { existsSync } from 'node:fs';
import { parseCommandLine, printUsage, runCommandLine, usageError, commandFailed } from '../cli.js';
import { loadEnv } from '../config.js';
import { withExistingStore } from '../store/index.js';

export const USAGE = `Usage: dealer-reviews backup <file>

Copies the SQLite store named by DATABASE_URL to <file> with SQLite's online backup: a consistent
copy, taken while the service keeps running. The copy is a complete store (point DATABASE_URL at
it to restore). For PostgreSQL, use pg_dump (docs/deployment.md).

Options:
  -h, --help   this text`;

const CLI = { name: 'backup', usage: USAGE };

/** `dealer-reviews backup <file>`: an online copy of the SQLite store. Reads only DATABASE_URL. */
export function main(argv: readonly string[]): Promise<number> {
  return runCommandLine(CLI, async () => {
    const args = parseCommandLine(argv, {});
    if (args === null) return printUsage(CLI);
    if (args.positionals.length !== 1) throw usageError('give exactly one file to write');
    const target = args.positionals[0]!;
    if (existsSync(target)) throw commandFailed(`${target} exists: give a new file`);
    return withExistingStore(loadEnv(['DATABASE_URL']).DATABASE_URL, async (store) => {
      if (!store.backup) {
        throw commandFailed(`this store (${store.engine}) has its own backup tools: use pg_dump`);
      }
      const started = Date.now();
      await store.backup(target);
      process.stdout.write(
        `${JSON.stringify({ backup: target, from: store.location, ms: Date.now() - started })}\n`,
      );
      return 0;
    });
  });
}
