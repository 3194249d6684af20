import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { modelFromFile, type ModelName } from '../../../src/insights/absa/index.js';
import {
  benchmarkData,
  crossValidate,
  dealershipChallenge,
  dealershipData,
  ensureTrainingEmbeddings,
  evaluate,
  repoRoot,
  scoreHeldOut,
  SEED,
  THRESHOLD_REPEATS,
  THRESHOLD_SHRINK,
  thresholdChoice,
  toScores,
  trainConfig,
  trainModel,
  type CvResult,
  type ScoredSentence,
  type Scores,
  type LabelledSentence,
  type ThresholdChoice,
  type TrainConfig,
} from '../training/index.js';
import { requireSharedData } from '../../paths.js';
import { labelledLines, surveyRecall, type SurveyReport } from './survey-eval.js';

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
 * A cross-validation of the dealership model's gold sentences (the other training sentences in
 * every training fold) that also keeps each held-out fold's detection probabilities.
 */
function scoredCrossValidation(
  gold: readonly LabelledSentence[],
  extra: readonly LabelledSentence[],
  config: TrainConfig,
  options: { folds: number; seed: number; limitFolds?: number },
): { crossValidation: CvResult; outOfFold: ScoredSentence[][] } {
  const outOfFold: ScoredSentence[][] = [];
  const crossValidation = crossValidate(gold, config, {
    ...options,
    extraTraining: extra,
    onFold: (foldModel, heldOut) => outOfFold.push(scoreHeldOut(foldModel, heldOut)),
  });
  return { crossValidation, outOfFold };
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
): Promise<CvReport> {
  requireSharedData();
  const config = trainConfig(name);
  const flags = limit < folds ? ` --limit-folds ${limit}` : '';
  const command = `npm run -s absa -- cv --model ${name} --folds ${folds}${flags}`;
  const options = { folds, seed: SEED, limitFolds: limit };
  let report: CvReport;
  if (name === 'dealership') {
    const { train, gold, test } = dealershipData();
    const challenge = dealershipChallenge();
    await ensureTrainingEmbeddings(config, [...train, ...test, ...challenge]);
    const extra = train.filter((s) => !gold.includes(s));
    const { crossValidation, outOfFold } = scoredCrossValidation(gold, extra, config, options);
    const model = modelFromFile(trainModel(train, config), config.clusters, config.vectors);
    const testSplit = { ...toScores(evaluate(model, test)), sentences: test.length };
    const challengeSet = { ...toScores(evaluate(model, challenge)), sentences: challenge.length };
    const surveyHeldOut = surveyRecall(model, labelledLines(gold));
    report = { model: name, command, crossValidation, testSplit, challengeSet, surveyHeldOut };
    if (limit >= folds) {
      // The first repeat is the cross-validation above; the others split the folds anew.
      const repeats = [outOfFold];
      for (let r = 1; r < THRESHOLD_REPEATS; r++) {
        repeats.push(
          scoredCrossValidation(gold, extra, config, { folds, seed: SEED + r }).outOfFold,
        );
      }
      const ids = config.categories.map((c) => c.id);
      report.thresholdChoice = thresholdChoice(repeats, ids, config.threshold, THRESHOLD_SHRINK);
    }
  } else {
    const data = benchmarkData(name);
    await ensureTrainingEmbeddings(config, data);
    report = { model: name, command, crossValidation: crossValidate(data, config, options) };
  }
  if (save) recordFigures(name, cvKey(folds, limit), report);
  return report;
}
