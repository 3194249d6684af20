import { parseCommandLine, printUsage, runCommandLine, usageError } from '../cli.js';
import { loadEnv } from '../config.js';
import { withExistingStore, type ModerationStore } from '../store/index.js';

export const USAGE = `Usage: dealer-reviews hidden [--json]

Lists the reviews taken out of publication (dealer-reviews remove) in the store named by
DATABASE_URL (default sqlite:./data/reviews.db), newest hide first, each with who hid it, when
and why, from the store's moderation log. \`dealer-reviews remove <id> --undo\` publishes one again.

Options:
  --json      one JSON line per review: {"reviewId", "hiddenAt", "by", "reason"}
  -h, --help  this text

See docs/importing.md.`;

const CLI = { name: 'hidden', usage: USAGE };

/** A hidden review and the decision that hid it (its latest hide in the log). */
export interface HiddenReview {
  reviewId: string;
  /** RFC 3339; null only for a hide the log does not hold (never written so by this code). */
  hiddenAt: string | null;
  by: string | null;
  reason: string | null;
}

/** The hidden reviews with their latest hide, newest first (ties by id). */
export async function listHidden(moderation: ModerationStore): Promise<HiddenReview[]> {
  const out: HiddenReview[] = [];
  for (const reviewId of await moderation.hiddenIds()) {
    const hide = (await moderation.log(reviewId)).findLast((r) => r.action === 'hide');
    out.push({
      reviewId,
      hiddenAt: hide?.at ?? null,
      by: hide?.actor ?? null,
      reason: hide?.reason ?? null,
    });
  }
  return out.sort(
    (a, b) =>
      (b.hiddenAt ?? '').localeCompare(a.hiddenAt ?? '') || a.reviewId.localeCompare(b.reviewId),
  );
}

/** The list as a table for the terminal (the reason last: it may be long). */
function table(rows: readonly HiddenReview[]): string {
  if (rows.length === 0) return 'No review is hidden.\n';
  const lines = rows.map((r) => [r.reviewId, r.hiddenAt ?? '-', r.by ?? '-', r.reason ?? '-']);
  const header = ['review id', 'hidden at', 'by', 'reason'];
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i]!.length)));
  const format = (cells: string[]) =>
    cells
      .map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  return `${[header, ...lines].map(format).join('\n')}\n`;
}

/** Whether `--json` was given; `null` for `--help`. */
function parseHiddenArgs(argv: readonly string[]): boolean | null {
  const args = parseCommandLine(argv, { json: { type: 'boolean', default: false } });
  if (args === null) return null;
  if (args.positionals.length > 0) throw usageError('takes no arguments');
  return args.values.json;
}

/**
 * `dealer-reviews hidden [--json]`: the hidden reviews with who, when and why. Reads only
 * DATABASE_URL. Exit codes: 0, 1 a failure, 2 bad command line.
 */
export function main(argv: readonly string[]): Promise<number> {
  return runCommandLine(CLI, async () => {
    const json = parseHiddenArgs(argv);
    if (json === null) return printUsage(CLI);
    return withExistingStore(loadEnv(['DATABASE_URL']).DATABASE_URL, async (store) => {
      const rows = await listHidden(store.moderation);
      process.stdout.write(json ? rows.map((r) => `${JSON.stringify(r)}\n`).join('') : table(rows));
      return 0;
    });
  });
}
