/**
 * ABSA command line (offline tooling).
 *
 *   npm run -s absa -- predict --model <semeval14-restaurants|mams-acsa|dealership>
 *       the shipped models on JSON lines (the same as `dealer-reviews absa predict`)
 *   npm run -s absa -- cv --model <name> [--folds 10] [--limit-folds N] [--jobs N] [--record]
 *       reruns the fixed-fold cross-validation (dealership: on its train split, plus the test split
 *       and, on a full run, the detection thresholds the folds of three splits choose) and prints
 *       the figures as JSON; --record stores them in models/metrics.json. The folds train in --jobs
 *       worker threads (default: one per core), with the same figures whatever their number. Needs
 *       the shared data in ../shared/data.
 *   npm run -s absa -- survey-eval
 *       the shipped dealership model on the held-out survey comments (issue 32's recall) and its
 *       precision on the hand-labelled test third, as JSON.
 *   npm run -s absa -- survey-cv [--quarters 0,1,2,3] [--record]
 *       the same recall on every survey comment: one dealership model trained without each quarter
 *       of the survey and scored on it, pooled (about 80 s of training a quarter); --record stores
 *       a run of all four in models/metrics.json.
 *   npm run -s absa -- sample-eval
 *       the shipped dealership model on the bundled sample, review by review, against what the
 *       sample's generator planned each review to say, as JSON.
 *   npm run -s absa -- change-claims [--count 1800]
 *       the changes the insights claim on ten generated samples against the sample's story.
 *   npm run -s absa -- contrast [--record]
 *       the shipped MAMS model on invented sentences with two aspects of opposite polarity.
 *   npm run -s absa -- probes [--record]
 *       the shipped dealership model on invented US-style sentences about arranging a visit and
 *       about how the staff treated the customer.
 */
import { parseCommandLine, printUsage, runCommandLine, usageError } from '../../src/cli.js';
import { main as predictMain } from '../../src/insights/absa/cli.js';
import { MODEL_NAMES, type ModelName } from '../../src/insights/absa/index.js';
import { runCv } from './internal/absa-cv.js';
import { defaultJobs } from './internal/cv-folds.js';
import { runChangeClaims } from './internal/change-claims.js';
import { runContrastEval } from './internal/contrast-eval.js';
import { runProbesEval } from './internal/probes-eval.js';
import { runSampleEval } from './internal/sample-eval.js';
import { runSurveyCv } from './internal/survey-cv.js';
import { runSurveyEval } from './internal/survey-eval.js';

const USAGE = `Usage: npm run -s absa -- predict --model <name>
       npm run -s absa -- cv --model <name> [--folds 10] [--limit-folds N] [--jobs N] [--record]
       npm run -s absa -- survey-eval
       npm run -s absa -- survey-cv [--quarters 0,1,2,3] [--record]
       npm run -s absa -- sample-eval
       npm run -s absa -- change-claims [--count <n>]
       npm run -s absa -- contrast [--record]
       npm run -s absa -- probes [--record]

predict  reads JSON lines {"id", "text", "categories"?} on stdin, writes {"id", "categories"}
cv       reruns the fixed-fold cross-validation of a model and prints the figures as JSON
         (dealership, all folds: also the detection thresholds that the folds of three splits
         choose, pooled, thresholdChoice: three cross-validations); the folds train in
         parallel threads; needs the shared evaluation data in ../shared/data
survey-eval  the shipped dealership model on the held-out survey comments: per question, the
         share of comments that get the question's aspect and the share that get none; and
         detection precision on the hand-labelled test third
survey-cv  the same recall on every survey comment: for each quarter of the survey, a dealership
         model trained without it (hand labels included) and scored on it; pooled, and for
         questions 1, 3 and 5 how many comments their hand labels say are about the question
sample-eval  the shipped dealership model on the bundled sample against the generator's plan:
         per aspect, the share of reviews planned to mention it where it is found, the reviews
         where it is found unplanned, the polarity agreement; and the planted wait-time change
change-claims  the changes ("got better", "got worse") the insights claim on ten generated
         samples (seeds 1 to 10), against the two the sample's story makes
contrast  the shipped MAMS model's polarity on data-labels/restaurant-contrast.jsonl, invented
         sentences with two aspects of opposite polarity (gold categories given), and its misses
probes   the shipped dealership model on data-labels/scheduling-probes.jsonl and
         staff-probes.jsonl, invented US-style sentences about arranging a visit and about how the
         staff treated the customer (categories detected): found, polarity right, misses

Options:
  --model <name>      ${MODEL_NAMES.join(', ')}
  --folds <n>         folds of the split (default 10)
  --limit-folds <n>   run only the first n folds
  --jobs <n>          folds trained at once, each in its own thread (cv; default: one per core;
                      the figures do not depend on it)
  --record            store the figures in models/metrics.json (cv; survey-cv of all quarters;
                      contrast; probes)
  --count <n>         reviews in each generated sample (change-claims; default 1800)
  --quarters <list>   survey quarters to hold out in turn (survey-cv; default 0,1,2,3)
  -h, --help          this text`;

const CLI = { name: 'absa', usage: USAGE };

/** The checks of a shipped model on a small labelled file, which `--record` stores. */
const RECORDED_EVALS = new Map<string, (record: boolean) => unknown>([
  ['contrast', runContrastEval],
  ['probes', runProbesEval],
]);

async function main(argv: readonly string[]): Promise<number> {
  if (argv[0] === 'predict') return predictMain(argv);
  return runCommandLine(CLI, async () => {
    const args = parseCommandLine(argv, {
      model: { type: 'string' },
      folds: { type: 'string', default: '10' },
      'limit-folds': { type: 'string' },
      jobs: { type: 'string' },
      record: { type: 'boolean', default: false },
      count: { type: 'string', default: '1800' },
      quarters: { type: 'string', default: '0,1,2,3' },
    });
    if (args === null) return printUsage(CLI);
    const { values, positionals } = args;
    if (positionals[0] === 'survey-eval' && positionals.length === 1) {
      process.stdout.write(`${JSON.stringify(runSurveyEval(), null, 2)}\n`);
      return 0;
    }
    if (positionals[0] === 'survey-cv' && positionals.length === 1) {
      const quarters = values.quarters.split(',').map(Number);
      if (!/^[0-3](,[0-3])*$/.test(values.quarters) || new Set(quarters).size < quarters.length) {
        throw usageError('--quarters must list distinct quarters from 0 to 3, e.g. 0,1,2,3');
      }
      if (values.record && quarters.length < 4) {
        throw usageError('--record needs all four quarters');
      }
      const report = await runSurveyCv(quarters, values.record);
      process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
      return 0;
    }
    const recorded = RECORDED_EVALS.get(positionals[0] ?? '');
    if (recorded && positionals.length === 1) {
      process.stdout.write(`${JSON.stringify(recorded(values.record), null, 2)}\n`);
      return 0;
    }
    if (positionals[0] === 'sample-eval' && positionals.length === 1) {
      process.stdout.write(`${JSON.stringify(runSampleEval(), null, 2)}\n`);
      return 0;
    }
    if (positionals[0] === 'change-claims' && positionals.length === 1) {
      const count = Number(values.count);
      if (!Number.isInteger(count) || count < 1 || count > 1_000_000) {
        throw usageError('--count must be an integer from 1 to 1000000');
      }
      process.stdout.write(`${JSON.stringify(await runChangeClaims(count), null, 2)}\n`);
      return 0;
    }
    if (positionals[0] !== 'cv' || positionals.length > 1) {
      throw usageError(
        'the command is predict, cv, survey-eval, survey-cv, sample-eval, change-claims, contrast or probes',
      );
    }
    const model = values.model;
    if (!model || !(MODEL_NAMES as readonly string[]).includes(model)) {
      throw usageError(`--model must be one of ${MODEL_NAMES.join(', ')}`);
    }
    const folds = Number(values.folds);
    const limit = values['limit-folds'] === undefined ? folds : Number(values['limit-folds']);
    if (!Number.isInteger(folds) || folds < 2 || !Number.isInteger(limit) || limit < 1) {
      throw usageError('--folds must be an integer >= 2 and --limit-folds >= 1');
    }
    const jobs = values.jobs === undefined ? defaultJobs() : Number(values.jobs);
    if (!Number.isInteger(jobs) || jobs < 1 || jobs > 64) {
      throw usageError('--jobs must be an integer from 1 to 64');
    }
    const result = await runCv(model as ModelName, folds, limit, values.record, jobs);
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    return 0;
  });
}

process.exitCode = await main(process.argv.slice(2));
