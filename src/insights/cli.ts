import { parseCommandLine, printUsage, runCommandLine, usageError } from '../cli.js';
import { loadEnv } from '../config.js';
import { orderReviews } from '../reviews/order.js';
import { withExistingStore } from '../store/index.js';
import { createInsightsEngine } from './engine.js';
import { renderReport } from './report.js';

export const USAGE = `Usage: dealer-reviews insights [--json]
       npm run insights [-- --json]

Computes the insights of the data in the store named by DATABASE_URL (default
sqlite:./data/reviews.db) and prints them as tables, or as the /insights.json document.

Options:
  --json       print the JSON document instead of tables
  -h, --help   this text

See docs/insights.md.`;

const CLI = { name: 'insights', usage: USAGE };

/**
 * `dealer-reviews insights [--json]`: the insights for operators. Uses the per-text analyses
 * stored in the same database (by the service, or by an earlier run), so it is quick on a
 * database the service has already published. Reads only `DATABASE_URL` from the environment.
 */
export function main(argv: readonly string[]): Promise<number> {
  return runCommandLine(CLI, async () => {
    const args = parseCommandLine(argv, { json: { type: 'boolean', default: false } });
    if (args === null) return printUsage(CLI);
    if (args.positionals.length > 0) throw usageError('takes no arguments');
    return withExistingStore(loadEnv(['DATABASE_URL']).DATABASE_URL, async (store) => {
      const dataset = await store.readDataset();
      const reviews = orderReviews(dataset.reviews).map((p) => p.review);
      const engine = createInsightsEngine({
        analyses: store.analyses,
        onStoreError: (err) =>
          process.stderr.write(
            `insights: stored analyses unavailable (${String(err)}); analysing all\n`,
          ),
      });
      const { insights } = await engine.computeInSlices({
        reviews,
        business: dataset.business,
        changedAt: dataset.state.changedAt,
      });
      process.stdout.write(
        args.values.json
          ? `${JSON.stringify(insights, null, 2)}\n`
          : renderReport(insights, dataset.business?.name ?? null),
      );
      return 0;
    });
  });
}
