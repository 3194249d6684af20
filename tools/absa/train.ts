/**
 * Trains every ABSA model from the data the repository can reach and writes `models/<name>.json`.
 * Deterministic: fixed data order, L-BFGS from zero, seeded network initialisation, shuffles and
 * dropout, rounded weights.
 *
 *   npm run train                          # all models into models/
 *   node dist/tools/absa/train.js mams-acsa   # one model
 *   node dist/tools/absa/train.js --out DIR --limit 300 semeval14-restaurants   # small run (tests)
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseCommandLine, printUsage, runCommandLine, usageError } from '../../src/cli.js';
import { MODEL_NAMES, type ModelName } from '../../src/insights/absa/index.js';
import {
  benchmarkData,
  dealershipData,
  ensureTrainingEmbeddings,
  trainConfig,
  trainModel,
  type LabelledSentence,
} from './training/index.js';
import { repoRoot, requireSharedData } from '../paths.js';

function trainingData(name: ModelName): LabelledSentence[] {
  return name === 'dealership' ? dealershipData().train : benchmarkData(name);
}

const USAGE = `Usage: npm run train [-- [--out DIR] [--limit N] [model ...]]

Trains the ABSA models (default: all of ${MODEL_NAMES.join(', ')}) from the shared data in
../shared/data and writes models/<name>.json. Deterministic: the same data gives the same bytes.

Options:
  --out <dir>    write the model files there instead of models/
  --limit <n>    train on the first n sentences only (quick checks)
  -h, --help     this text`;

const CLI = { name: 'train', usage: USAGE };

async function main(argv: readonly string[]): Promise<number> {
  return runCommandLine(CLI, async () => {
    const args = parseCommandLine(argv, { out: { type: 'string' }, limit: { type: 'string' } });
    if (args === null) return printUsage(CLI);
    const { values, positionals } = args;
    const names = positionals.length > 0 ? positionals : [...MODEL_NAMES];
    for (const name of names) {
      if (!(MODEL_NAMES as readonly string[]).includes(name)) {
        throw usageError(`unknown model: ${name}`);
      }
    }
    const limit = values.limit === undefined ? undefined : Number(values.limit);
    if (limit !== undefined && !(Number.isInteger(limit) && limit > 0)) {
      throw usageError('--limit must be a positive integer');
    }
    requireSharedData();
    const outDir = values.out ?? join(repoRoot(), 'models');
    mkdirSync(outDir, { recursive: true });
    for (const name of names as ModelName[]) {
      const started = Date.now();
      let data = trainingData(name);
      if (limit !== undefined) data = data.slice(0, limit);
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
    return 0;
  });
}

process.exitCode = await main(process.argv.slice(2));
