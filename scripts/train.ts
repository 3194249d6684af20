/**
 * Trains every ABSA model from the data the repository can reach and writes `models/<name>.json`.
 * Deterministic: fixed data order, L-BFGS from zero, seeded network initialisation, shuffles and
 * dropout, rounded weights.
 *
 *   npm run train                          # all models into models/
 *   node dist/scripts/train.js mams-acsa   # one model
 *   node dist/scripts/train.js --out DIR --limit 300 semeval14-restaurants   # small run (tests)
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { MODEL_NAMES, type ModelName } from '../src/insights/absa/index.js';
import {
  benchmarkData,
  dealershipData,
  ensureTrainingEmbeddings,
  repoRoot,
  trainConfig,
  trainModel,
  type LabelledSentence,
} from '../src/insights/absa/training/index.js';

function trainingData(name: ModelName): LabelledSentence[] {
  return name === 'dealership' ? dealershipData().train : benchmarkData(name);
}

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { out: { type: 'string' }, limit: { type: 'string' } },
});
const names = positionals.length > 0 ? positionals : [...MODEL_NAMES];
for (const name of names) {
  if (!(MODEL_NAMES as readonly string[]).includes(name)) {
    process.stderr.write(`unknown model: ${name}\n`);
    process.exit(2);
  }
}
const outDir = values.out ?? join(repoRoot(), 'models');
mkdirSync(outDir, { recursive: true });
for (const name of names as ModelName[]) {
  const started = Date.now();
  let data = trainingData(name);
  if (values.limit) data = data.slice(0, Number(values.limit));
  const config = trainConfig(name);
  await ensureTrainingEmbeddings(config, data);
  const file = trainModel(data, config);
  const json = `${JSON.stringify(file)}\n`;
  writeFileSync(join(outDir, `${name}.json`), json);
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  process.stderr.write(
    `${name}: ${data.length} sentences, version ${file.version}, ${(json.length / 1e6).toFixed(2)} MB, ${seconds} s\n`,
  );
}
