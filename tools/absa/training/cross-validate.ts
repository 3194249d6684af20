import { modelFromFile, type AbsaModel } from '../../../src/insights/absa/model.js';
import type { LabelledSentence } from './datasets.js';
import { stratifiedFolds } from './folds.js';
import { evaluate, toScores, type Scores } from './metrics.js';
import { trainModel, type TrainConfig } from './train-model.js';

/** Settings of one cross-validation run. */
export interface CvOptions {
  folds: number;
  seed: number;
  /** Run only the first n folds (a reduced, still fixed, configuration for tests). */
  limitFolds?: number;
  /** Extra sentences added to every training fold but never tested on (e.g. weak labels). */
  extraTraining?: readonly LabelledSentence[];
  /** Called with each fold's model and held-out sentences (e.g. to keep out-of-fold scores). */
  onFold?: (model: AbsaModel, test: readonly LabelledSentence[]) => void;
}

/** Per-fold scores, their mean and (sample) standard deviation. */
export interface CvResult {
  folds: number;
  seed: number;
  foldsRun: number;
  perFold: Scores[];
  mean: Scores;
  std: Scores;
}

function summarize(perFold: Scores[], pick: (s: Scores) => number): [number, number] {
  const xs = perFold.map(pick);
  const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
  const variance =
    xs.length > 1 ? xs.reduce((a, x) => a + (x - mean) ** 2, 0) / (xs.length - 1) : 0;
  return [Math.round(mean * 100) / 100, Math.round(Math.sqrt(variance) * 100) / 100];
}

/**
 * Stratified k-fold cross-validation with fixed folds: trains a model on k-1 folds (plus any extra
 * training data) and scores it on the held-out fold, for each fold in turn.
 */
export function crossValidate(
  data: readonly LabelledSentence[],
  config: TrainConfig,
  options: CvOptions,
): CvResult {
  const assignment = stratifiedFolds(data, options.folds, options.seed);
  const perFold: Scores[] = [];
  const run = Math.min(options.folds, options.limitFolds ?? options.folds);
  for (let f = 0; f < run; f++) {
    const train = data.filter((_, i) => assignment[i] !== f).concat(options.extraTraining ?? []);
    const test = data.filter((_, i) => assignment[i] === f);
    const model = modelFromFile(trainModel(train, config), config.clusters, config.vectors);
    perFold.push(toScores(evaluate(model, test)));
    options.onFold?.(model, test);
  }
  const keys = [
    'detectionPrecision',
    'detectionRecall',
    'detectionF1',
    'polarityAccuracy',
  ] as const;
  const mean = {} as Scores;
  const std = {} as Scores;
  for (const key of keys) [mean[key], std[key]] = summarize(perFold, (s) => s[key]);
  return { folds: options.folds, seed: options.seed, foldsRun: run, perFold, mean, std };
}
