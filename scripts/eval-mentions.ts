/**
 * `npm run eval:mentions [-- --verbose]`: precision and recall of staff-name detection on
 * `../shared/data/dealerrater-mckaig/reviews_dev.jsonl` (relative to the repo root). With
 * `--verbose`, lists the review ids where the matcher and the gold differ (ids only).
 */
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { evaluateMentions, readEvalReviews, type Score } from './mention-eval.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const DATA = join(ROOT, '..', 'shared', 'data', 'dealerrater-mckaig', 'reviews_dev.jsonl');

function line(label: string, s: Score): string {
  const f = (x: number): string => x.toFixed(3);
  return `${label.padEnd(28)} precision ${f(s.precision)}  recall ${f(s.recall)}  F1 ${f(s.f1)}  (TP ${s.truePositives}, FP ${s.falsePositives}, FN ${s.falseNegatives})`;
}

const { values } = parseArgs({ options: { verbose: { type: 'boolean', default: false } } });
const result = evaluateMentions(readEvalReviews(DATA));
console.log(
  `${result.reviews} reviews, ${result.tags} staff tags, roster of ${result.roster}, gold ${result.gold} (tagged and named)`,
);
console.log(line('tagged and named (gold)', result.strict));
console.log(line('any roster member named', result.named));
if (values.verbose) {
  for (const e of result.errors) {
    console.log(`  review ${e.id}: missed ${e.missed.length}, extra ${e.extra.length}`);
  }
}
