/**
 * ABSA command line.
 *
 *   npm run -s absa -- predict --model <semeval14-restaurants|mams-acsa|dealership>
 *       stdin: JSON lines {"id", "text", "categories"?}; stdout: {"id", "categories": [{category, polarity}]}
 *   npm run -s absa -- cv --model <name> [--folds 10] [--limit-folds N] [--record]
 *       reruns the fixed-fold cross-validation (dealership: on its train split, plus the test split)
 *       and prints the figures as JSON; --record stores them in models/metrics.json.
 */
import { parseArgs } from 'node:util';
import { MODEL_NAMES, type ModelName } from '../src/insights/absa/index.js';
import { runCv } from './internal/absa-cv.js';
import { runPredict } from './internal/absa-predict.js';

function fail(message: string): never {
  process.stderr.write(`absa: ${message}\n`);
  process.exit(2);
}

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    model: { type: 'string' },
    folds: { type: 'string', default: '10' },
    'limit-folds': { type: 'string' },
    record: { type: 'boolean', default: false },
  },
});
const command = positionals[0];
const model = values.model;
if (!model || !(MODEL_NAMES as readonly string[]).includes(model)) {
  fail(`--model must be one of ${MODEL_NAMES.join(', ')}`);
}
if (command === 'predict') {
  process.exitCode = await runPredict(
    model as ModelName,
    process.stdin,
    process.stdout,
    process.stderr,
  );
} else if (command === 'cv') {
  const folds = Number(values.folds);
  const limit = values['limit-folds'] === undefined ? folds : Number(values['limit-folds']);
  if (!Number.isInteger(folds) || folds < 2 || !Number.isInteger(limit) || limit < 1) {
    fail('--folds must be an integer >= 2 and --limit-folds >= 1');
  }
  const result = await runCv(model as ModelName, folds, limit, values.record);
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
} else {
  fail('usage: absa predict|cv --model <name>');
}
