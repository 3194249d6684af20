import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { modelFromFile, type ModelName } from '../../../src/insights/absa/index.js';
import {
  dealershipChallenge,
  dealershipData,
  ensureTrainingEmbeddings,
  evaluate,
  repoRoot,
  SEED,
  summarizeFolds,
  THRESHOLD_REPEATS,
  THRESHOLD_SHRINK,
  thresholdChoice,
  toScores,
  trainConfig,
  trainModel,
  type CvResult,
  type Scores,
  type ThresholdChoice,
} from '../training/index.js';
import { requireSharedData } from '../../paths.js';
import { labelledLines, surveyRecall, type SurveyReport } from './survey-eval.js';
import { defaultJobs, runFolds } from './cv-folds.js';

/** What `absa cv` prints and records for one model and fold configuration. */
export interface CvReport {
  model: ModelName;
  command: string;
  crossValidation: CvResult;
  /** Dealership only: trained on the whole train split, scored on the fixed test split. */
  testSplit?: Scores & { sentences: number };
  /** Dealership only: the same model on the annotator-written challenge sentences. */
  challengeSet?: Scores & { sentences: number };
  /** Dealership only: the same model on the held-out survey comments (`absa survey-eval`). */
  surveyHeldOut?: SurveyReport;
  /**
   * Dealership, full runs only: the per-category detection thresholds the out-of-fold
   * probabilities choose (`thresholdChoice`); the shipped configuration's `thresholds` are these.
   */
  thresholdChoice?: ThresholdChoice;
}

/** The key of a fold configuration in `models/metrics.json`, e.g. `10-fold` or `10-fold-first-1`. */
export function cvKey(folds: number, limit: number): string {
  return limit >= folds ? `${folds}-fold` : `${folds}-fold-first-${limit}`;
}

/** Path of the recorded benchmark figures. */
export function metricsPath(): string {
  return join(repoRoot(), 'models', 'metrics.json');
}

/** Stores `figures` in `models/metrics.json` under the model's `key`, replacing what was there. */
export function recordFigures(model: ModelName, key: string, figures: unknown): void {
  const path = metricsPath();
  const all = existsSync(path)
    ? (JSON.parse(readFileSync(path, 'utf8')) as Record<string, Record<string, unknown>>)
    : {};
  all[model] = { ...all[model], [key]: figures };
  const sorted = Object.fromEntries(Object.entries(all).sort(([a], [b]) => (a < b ? -1 : 1)));
  writeFileSync(path, `${JSON.stringify(sorted, null, 2)}\n`);
}

/**
 * Reruns the fixed-fold cross-validation of a model (for the dealership model: folds of its gold
 * train split, the seed, weak and transfer sentences added to every training fold; then the fixed
 * test split and the challenge sentences) and optionally
 * records the report in `models/metrics.json` under its fold configuration.
 */
export async function runCv(
  name: ModelName,
  folds: number,
  limit: number,
  save: boolean,
  jobs: number = defaultJobs(),
): Promise<CvReport> {
  requireSharedData();
  const config = trainConfig(name);
  const flags = limit < folds ? ` --limit-folds ${limit}` : '';
  const command = `npm run -s absa -- cv --model ${name} --folds ${folds}${flags}`;
  const run = Math.min(folds, limit);
  // The dealership model's full runs split the folds anew for its threshold choice: one thread
  // pool takes the folds of every split.
  const seeds = name === 'dealership' && run === folds ? THRESHOLD_REPEATS : 1;
  const tasks = Array.from({ length: seeds }, (_, r) =>
    Array.from({ length: r === 0 ? run : folds }, (_, fold) => ({ seed: SEED + r, fold })),
  ).flat();
  const outcomes = await runFolds(name, folds, tasks, jobs);
  const crossValidation = summarizeFolds(
    outcomes.slice(0, run).map((o) => o.scores),
    folds,
    SEED,
  );
  const report: CvReport = { model: name, command, crossValidation };
  if (name === 'dealership') {
    const { train, gold, test } = dealershipData();
    const challenge = dealershipChallenge();
    await ensureTrainingEmbeddings(config, [...train, ...test, ...challenge]);
    const model = modelFromFile(trainModel(train, config), config.clusters, config.vectors);
    report.testSplit = { ...toScores(evaluate(model, test)), sentences: test.length };
    report.challengeSet = { ...toScores(evaluate(model, challenge)), sentences: challenge.length };
    report.surveyHeldOut = surveyRecall(model, labelledLines(gold));
    if (seeds > 1) {
      const repeats = Array.from({ length: seeds }, (_, r) =>
        outcomes.slice(r * folds, (r + 1) * folds).map((o) => o.scored!),
      );
      const ids = config.categories.map((c) => c.id);
      report.thresholdChoice = thresholdChoice(repeats, ids, config.threshold, THRESHOLD_SHRINK);
    }
  }
  if (save) recordFigures(name, cvKey(folds, limit), report);
  return report;
}
