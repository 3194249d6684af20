/**
 * ABSA speed: model load time and analysis throughput on dealership-length reviews (for a model
 * with a sentence encoder, the time to encode the sentences is reported apart from the analysis).
 *
 *   npm run -s bench:absa [-- --reviews 10000] [--model dealership]
 *
 * The review texts are the DealerRater and survey comments in ../shared/data (read at run time,
 * never stored), cycled up to the requested count.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseCommandLine, printUsage, runCommandLine, usageError } from '../../src/cli.js';
import {
  analyzeReview,
  createReviewAnalyzer,
  ensureReviewEmbeddings,
  loadModel,
  loadWordClusters,
  loadWordVectors,
  MODEL_NAMES,
  type ModelName,
} from '../../src/insights/absa/index.js';
import { requireSharedData } from '../paths.js';

function reviewTexts(): string[] {
  const dir = requireSharedData();
  const dealerrater = readFileSync(join(dir, 'dealerrater-mckaig', 'reviews_dev.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => (JSON.parse(l) as { text: string }).text);
  const survey = readFileSync(join(dir, 'dealer-service-survey-in', 'dev', 'q5.txt'), 'utf8')
    .split('\n')
    .filter((l) => l.trim().length > 0);
  return [...dealerrater, ...survey];
}

function ms(start: bigint): number {
  return Number(process.hrtime.bigint() - start) / 1e6;
}

const USAGE = `Usage: npm run -s bench:absa [-- --reviews 10000] [--model dealership]

Model load times and analysis throughput on dealership-length reviews (the DealerRater and survey
comments in ../shared/data, cycled up to the count).`;

const CLI = { name: 'bench:absa', usage: USAGE };

async function main(argv: readonly string[]): Promise<number> {
  return runCommandLine(CLI, async () => {
    const args = parseCommandLine(argv, {
      reviews: { type: 'string', default: '10000' },
      model: { type: 'string', default: 'dealership' },
    });
    if (args === null) return printUsage(CLI);
    const { values } = args;
    const analysed = values.model as ModelName;
    if (!MODEL_NAMES.includes(analysed)) throw usageError(`unknown model: ${values.model}`);
    const count = Number(values.reviews);
    if (!(Number.isInteger(count) && count > 0)) {
      throw usageError('--reviews must be a positive integer');
    }
    let t = process.hrtime.bigint();
    loadWordClusters();
    const clustersMs = ms(t);
    t = process.hrtime.bigint();
    loadWordVectors();
    const vectorsMs = ms(t);
    const loads: Record<string, number> = {};
    for (const name of MODEL_NAMES) {
      t = process.hrtime.bigint();
      loadModel(name);
      loads[name] = Math.round(ms(t));
    }
    const model = loadModel(analysed);
    const base = reviewTexts();
    // Distinct texts (a numbered suffix) so that nothing can be cached by accident.
    const texts = Array.from({ length: count }, (_, i) => `${base[i % base.length]!} (${i})`);
    const chars = texts.reduce((a, x) => a + x.length, 0);
    // A model with a sentence encoder (semeval14-restaurants) needs its sentences encoded first.
    t = process.hrtime.bigint();
    await ensureReviewEmbeddings(model, texts);
    const encodeMs = ms(t);
    analyzeReview(model, texts[0]!);
    t = process.hrtime.bigint();
    let sentences = 0;
    for (const text of texts) sentences += analyzeReview(model, text).sentences.length;
    const analyseMs = ms(t);
    const analyzer = createReviewAnalyzer(model);
    for (const text of texts) analyzer.analyze(text);
    t = process.hrtime.bigint();
    for (const text of texts) analyzer.analyze(text);
    const cachedMs = ms(t);
    const report = {
      node: process.version,
      wordClustersLoadMs: Math.round(clustersMs),
      wordVectorsLoadMs: Math.round(vectorsMs),
      analysedWith: analysed,
      modelLoadMs: loads,
      reviews: count,
      meanReviewChars: Math.round(chars / count),
      sentences,
      sentenceEncodingSeconds: Number((encodeMs / 1000).toFixed(2)),
      analysisSeconds: Number((analyseMs / 1000).toFixed(2)),
      reviewsPerSecond: Math.round(count / (analyseMs / 1000)),
      msPerReview: Number((analyseMs / count).toFixed(3)),
      cachedPassMs: Math.round(cachedMs),
    };
    process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
    return 0;
  });
}

process.exitCode = await main(process.argv.slice(2));
