/**
 * `npm run eval:mentions [-- --verbose]`: precision and recall of staff-name detection on
 * `../shared/data/dealerrater-mckaig/reviews_dev.jsonl` (relative to the repo root). With
 * `--verbose`, lists the review ids where the matcher and the gold differ (ids only).
 */
import { parseCommandLine, printUsage, runCommandLine, usageError } from '../../src/cli.js';
import { sharedDataFile } from '../paths.js';
import { evaluateMentions, readEvalReviews, type Score } from './mention-eval.js';

const USAGE = `Usage: npm run eval:mentions [-- --verbose]

Precision and recall of staff-name detection on ../shared/data/dealerrater-mckaig/reviews_dev.jsonl
(read in place, never copied).

Options:
  --verbose    list the review ids where the matcher and the gold differ
  -h, --help   this text`;

const CLI = { name: 'eval:mentions', usage: USAGE };

function line(label: string, s: Score): string {
  const f = (x: number): string => x.toFixed(3);
  return `${label.padEnd(28)} precision ${f(s.precision)}  recall ${f(s.recall)}  F1 ${f(s.f1)}  (TP ${s.truePositives}, FP ${s.falsePositives}, FN ${s.falseNegatives})`;
}

async function main(argv: readonly string[]): Promise<number> {
  return runCommandLine(CLI, async () => {
    const args = parseCommandLine(argv, { verbose: { type: 'boolean', default: false } });
    if (args === null) return printUsage(CLI);
    if (args.positionals.length > 0) throw usageError('takes no arguments');
    const data = sharedDataFile('dealerrater-mckaig', 'reviews_dev.jsonl');
    const result = evaluateMentions(readEvalReviews(data));
    console.log(
      `${result.reviews} reviews, ${result.tags} staff tags, roster of ${result.roster}, gold ${result.gold} (tagged and named)`,
    );
    console.log(line('tagged and named (gold)', result.strict));
    console.log(line('any roster member named', result.named));
    if (args.values.verbose) {
      for (const e of result.errors) {
        console.log(`  review ${e.id}: missed ${e.missed.length}, extra ${e.extra.length}`);
      }
    }
    return 0;
  });
}

process.exitCode = await main(process.argv.slice(2));
