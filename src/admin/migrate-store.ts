import { parseCommandLine, printUsage, runCommandLine, usageError, commandFailed } from '../cli.js';
import {
  databaseUrlProblem,
  maskDatabaseUrl,
  openExistingStoreWithin,
  openStoreWithin,
  STORE_NOT_EMPTY,
  type Store,
  type TableCounts,
} from '../store/index.js';
import { dict } from '../platform/dict.js';
import { isServiceError } from '../platform/errors.js';

export const USAGE = `Usage: dealer-reviews migrate-store --from <database-url> --to <database-url> [--json]

Copies a whole store into an EMPTY one of either engine, typically the SQLite file into a new
PostgreSQL database:

  dealer-reviews migrate-store --from sqlite:./data/reviews.db --to postgres://user:pw@db/reviews

The reviews (hidden ones too, with their derived records), the business, the data version, the
moderation log, MCP session secrets (open sessions stay valid), ended sessions and their
subscriptions, WebSub subscriptions with their secrets and leases, pending verifications and
deliveries, topic states and the insights' stored analyses: read from one snapshot of the source,
written in one transaction (nothing is written if anything fails), then counted again in the
target. A target that holds any data is refused. Changes made to the source after the snapshot
are not copied: stop the old service first, or start the new one only after the copy.

Options:
  --from <url>   the store to copy (sqlite:<path>, postgres://...); it is only read
  --to <url>     the empty store to fill (created and migrated if needed)
  --json         print the counts as one JSON line instead of a table
  -h, --help     this text`;

const CLI = { name: 'migrate-store', usage: USAGE };

/** Rows per batch read from the source and written to the target. */
const BATCH = 500;

function checkUrl(option: string, url: string | undefined): string {
  if (url === undefined) throw usageError(`${option} is required`);
  const problem = databaseUrlProblem(url);
  if (problem) throw usageError(`${option} ${maskDatabaseUrl(url)}: ${problem}`);
  return url;
}

/** `dealer-reviews migrate-store --from <url> --to <url>`: the store copied into an empty one. */
export function main(argv: readonly string[]): Promise<number> {
  return runCommandLine(CLI, async () => {
    const args = parseCommandLine(argv, {
      from: { type: 'string' },
      to: { type: 'string' },
      json: { type: 'boolean' },
    });
    if (args === null) return printUsage(CLI);
    if (args.positionals.length > 0) throw usageError('give --from and --to, nothing else');
    const from = checkUrl('--from', args.values.from);
    const to = checkUrl('--to', args.values.to);
    if (from === to) throw usageError('--from and --to name the same store');
    const started = Date.now();
    const source = await openExistingStoreWithin(from, '--from');
    let target: Store | undefined;
    try {
      target = await openStoreWithin(to);
      const into = target;
      let exported: TableCounts = dict();
      try {
        await into.transfer.importRows(async (put) => {
          exported = await source.transfer.exportRows(put, BATCH);
        });
      } catch (err) {
        if (isServiceError(err, STORE_NOT_EMPTY)) {
          throw commandFailed(
            `${err.message}: migrate-store copies into an empty database only; nothing was written`,
          );
        }
        throw err;
      }
      const copied = await into.transfer.counts();
      const differ = Object.keys(exported).filter((t) => copied[t] !== exported[t]);
      if (differ.length > 0) {
        throw commandFailed(
          `the copy was committed but its counts differ: ${differ
            .map((t) => `${t} ${exported[t]} read, ${copied[t]} in the target`)
            .join('; ')}`,
        );
      }
      const report = {
        from: maskDatabaseUrl(from),
        to: maskDatabaseUrl(to),
        ms: Date.now() - started,
        counts: copied,
      };
      if (args.values.json) {
        process.stdout.write(`${JSON.stringify(report)}\n`);
      } else {
        const width = Math.max(...Object.keys(copied).map((t) => t.length));
        const lines = Object.entries(copied).map(([t, n]) => `  ${t.padEnd(width)}  ${n}`);
        process.stdout.write(
          `copied ${report.from} to ${report.to} in ${(report.ms / 1000).toFixed(1)} s; rows per table (checked in the target):\n${lines.join('\n')}\n`,
        );
      }
      return 0;
    } finally {
      await target?.close();
      await source.close();
    }
  });
}
