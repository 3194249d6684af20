import { hostname, userInfo } from 'node:os';
import { z } from 'zod';
import { commandFailed, parseCommandLine, printUsage, runCommandLine, usageError } from '../cli.js';
import { loadEnv } from '../config.js';
import { withExistingStore, type ModerationRecord } from '../store/index.js';

export const USAGE = `Usage: dealer-reviews remove <review-id> [--reason <text>] [--by <name>]
       dealer-reviews remove <review-id> --undo [--reason <text>] [--by <name>]

Takes one review out of publication (reviews.json, the feeds, search, since, insights, MCP) in the
store named by DATABASE_URL (default sqlite:./data/reviews.db). <review-id> is the review's "id" in
/reviews.json. The change is a new data version: ETags, feeds and WebSub notifications follow, and a
running service publishes it within DATA_POLL_MS. The review stays stored, hidden: importing the
same export again (with --prune or not) does not bring it back; --undo publishes it again.

Each change prints one JSON line on stdout and is kept in the store's moderation log (who, when,
why). Removing a review that is already removed (or undoing one that is not) changes nothing.

Options:
  --reason <text>  why, kept in the log (one line, up to 500 characters)
  --by <name>      who, kept in the log (default: the system user and host)
  --undo           publish the review again
  -h, --help       this text

See docs/importing.md.`;

const CLI = { name: 'remove', usage: USAGE };

// eslint-disable-next-line no-control-regex
const ONE_LINE = /^[^\u0000-\u001f\u007f]*$/;

const note = (option: string, max: number) =>
  z
    .string()
    .trim()
    .min(1, `${option} must not be empty`)
    .max(max, `${option} must be at most ${max} characters`)
    .regex(ONE_LINE, `${option} must be one line without control characters`)
    .nullable();

/** The command line of `dealer-reviews remove`, as it is validated. */
const RemoveArgs = z.object({
  /** The public id of the review (a UUID; ids are stored in lower case). */
  reviewId: z
    .uuid('the review id must be a UUID: the "id" of the review in /reviews.json')
    .transform((id) => id.toLowerCase()),
  reason: note('--reason', 500),
  by: note('--by', 200),
  undo: z.boolean(),
});
type RemoveArgs = z.output<typeof RemoveArgs>;

/** Parses the arguments after `dealer-reviews remove`; `null` means `--help`. */
function parseRemoveArgs(argv: readonly string[]): RemoveArgs | null {
  const parsed = parseCommandLine(argv, {
    reason: { type: 'string' },
    by: { type: 'string' },
    undo: { type: 'boolean', default: false },
  });
  if (parsed === null) return null;
  const { values, positionals } = parsed;
  if (positionals.length !== 1) throw usageError('give exactly one review id');
  const args = RemoveArgs.safeParse({
    reviewId: positionals[0],
    reason: values.reason ?? null,
    by: values.by ?? null,
    undo: values.undo,
  });
  if (!args.success) throw usageError(args.error.issues[0]!.message);
  return args.data;
}

/** The operator, when `--by` does not say: the system user and host. */
function systemActor(): string {
  try {
    return `${userInfo().username}@${hostname()}`;
  } catch {
    // No passwd entry for this uid (some containers).
    return `uid ${process.getuid?.() ?? 'unknown'}@${hostname()}`;
  }
}

/**
 * `dealer-reviews remove <review-id> [--reason <text>] [--by <name>] [--undo]`: hides one review
 * from publication (or, with `--undo`, publishes it again) as a new data version, logged in the
 * store and as one JSON line on stdout. Reads only `DATABASE_URL`. Exit codes: 0 done (or nothing
 * to do), 1 no review has this id (or another failure), 2 bad command line.
 */
export function main(argv: readonly string[]): Promise<number> {
  return runCommandLine(CLI, async () => {
    const args = parseRemoveArgs(argv);
    if (args === null) return printUsage(CLI);
    // A store that does not exist, or a file that is not one, fails in one line (opening a
    // SQLite path creates it, and a file that is not a database failed at the first query).
    return withExistingStore(loadEnv(['DATABASE_URL']).DATABASE_URL, async (store) => {
      const record: ModerationRecord = {
        reviewId: args.reviewId,
        action: args.undo ? 'unhide' : 'hide',
        reason: args.reason,
        actor: args.by ?? systemActor(),
        at: new Date().toISOString(),
      };
      const outcome = await store.moderation.apply(record);
      if (outcome.status === 'unknown') {
        throw commandFailed(`no review has the id ${record.reviewId}; nothing changed`);
      }
      const line =
        outcome.status === 'changed'
          ? { event: `review.${record.action}`, ...record, version: outcome.state.version }
          : {
              event: `review.${record.action}.unchanged`,
              reviewId: record.reviewId,
              version: null,
            };
      process.stdout.write(`${JSON.stringify(line)}\n`);
      return 0;
    });
  });
}
