import { describeError, USAGE_ERROR } from '../cli.js';
import { loadEnv } from '../config.js';
import { isServiceError } from '../platform/errors.js';
import { lowerProcessPriority } from '../platform/priority.js';
import { CONCURRENT_CHANGE, openStoreWithin, type Store } from '../store/index.js';
import { parseCliArgs, USAGE, type CliArgs } from './args.js';

export { USAGE };
import { createProgress, type ProgressSink } from './progress.js';
import { retryConcurrentChanges } from './ingest.js';
import { formatSummary } from './report.js';
import { runImport, strictImportSummary, type ImportSummary } from './run.js';

/** Runs of an import in all when other writers keep committing meanwhile. */
export const IMPORT_ATTEMPTS = 3;

/**
 * The exit code of an import that other writers' commits kept refusing (`EX_TEMPFAIL`: nothing
 * was written, and the same command may succeed later).
 */
export const EXIT_CONCURRENT = 75;

function fail(args: CliArgs | null, message: string, code: number): number {
  if (args?.json) process.stdout.write(`${JSON.stringify({ error: message })}\n`);
  process.stderr.write(`import: ${message}\n`);
  return code;
}

function print(args: CliArgs, summary: ImportSummary): void {
  if (args.json) process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
  else process.stdout.write(formatSummary(summary, args.path));
}

function progressFor(args: CliArgs): ProgressSink | null {
  if (process.stderr.isTTY && !args.json) return createProgress(process.stderr, 'bar');
  return args.progress ? createProgress(process.stderr, 'lines') : null;
}

function describe(err: unknown): string {
  if (isServiceError(err)) return err.message;
  const e = err as { code?: string; message?: string };
  if (e?.code === 'SQLITE_BUSY') return 'the database is locked by another import; try again';
  if (typeof e?.code === 'string' && e.code.startsWith('SQLITE')) {
    return `database error (${e.code}): ${e.message}`;
  }
  return describeError(err);
}

async function importWith(store: Store, args: CliArgs): Promise<number> {
  let progress = progressFor(args);
  try {
    // Another import (or a moderation decision) that commits while this one runs makes it start
    // again from what is committed then: its counts are those of what it finally wrote.
    const summary = await retryConcurrentChanges(
      () =>
        runImport(store, {
          path: args.path,
          format: args.format,
          strict: args.strict,
          prune: args.prune,
          dryRun: args.dryRun,
          defaultSource: args.source,
          onProgress: (p) => progress?.update(p),
        }),
      {
        attempts: IMPORT_ATTEMPTS,
        onRetry: (failures) => {
          progress?.done();
          process.stderr.write(
            `import: another change was committed meanwhile; importing again (attempt ${failures + 1} of ${IMPORT_ATTEMPTS})\n`,
          );
          progress = progressFor(args);
        },
      },
    );
    progress?.done();
    print(args, summary);
    return 0;
  } catch (err) {
    progress?.done();
    if (isServiceError(err, CONCURRENT_CHANGE)) {
      return fail(
        args,
        `other changes were committed during each of ${IMPORT_ATTEMPTS} attempts; nothing was imported, try again`,
        EXIT_CONCURRENT,
      );
    }
    const summary = strictImportSummary(err);
    if (summary === null) throw err;
    print(args, summary);
    process.stderr.write(`import: ${(err as Error).message}\n`);
    return 1;
  }
}

/**
 * `dealer-reviews import <file> [options]` (or `npm run import -- ...`): parses the command line
 * and `DATABASE_URL` (no other variable: a bad setting of the service does not stop an import),
 * opens the store and imports. Exit codes: 0 imported (rejected rows are reported, not fatal),
 * 1 the import failed and nothing was written, 2 bad command line, 75 (`EXIT_CONCURRENT`) other
 * writers committed during each attempt and nothing was written.
 */
export async function main(argv: readonly string[]): Promise<number> {
  let args: CliArgs | null = null;
  try {
    args = parseCliArgs(argv);
    if (args === null) {
      process.stdout.write(`${USAGE}\n`);
      return 0;
    }
    // An import is batch work beside a running service: it yields the cores to the service.
    lowerProcessPriority();
    const store = await openStoreWithin(loadEnv(['DATABASE_URL']).DATABASE_URL);
    const interrupted = (): void => {
      process.stderr.write('\nimport: interrupted; nothing was imported\n');
      process.exit(130);
    };
    process.once('SIGINT', interrupted);
    process.once('SIGTERM', interrupted);
    try {
      return await importWith(store, args);
    } finally {
      await store.close();
    }
  } catch (err) {
    if (isServiceError(err, USAGE_ERROR))
      return fail(args, `${err.message}\n\n${USAGE}`, err.exitCode);
    return fail(args, describe(err), 1);
  }
}
