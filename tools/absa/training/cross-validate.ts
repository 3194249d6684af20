import { modelFromFile, type AbsaModel } from '../../../src/insights/absa/model.js';
import type { LabelledSentence } from './datasets.js';
import { stratifiedFolds } from './folds.js';
import type { Scores } from './metrics.js';
import { trainModel, type TrainConfig } from './train-model.js';

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

/** One fold of a fixed split: its held-out sentences and the model trained on the others. */
export interface TrainedFold {
  model: AbsaModel;
  test: LabelledSentence[];
}

/**
 * Trains fold `fold` of the stratified split of `data` into `folds` folds by `seed`: a model on the
 * other folds (plus any extra training data), and the held-out fold it is scored on.
 */
export function trainFold(
  data: readonly LabelledSentence[],
  config: TrainConfig,
  split: { folds: number; seed: number; fold: number; extraTraining?: readonly LabelledSentence[] },
): TrainedFold {
  const assignment = stratifiedFolds(data, split.folds, split.seed);
  const train = data
    .filter((_, i) => assignment[i] !== split.fold)
    .concat(split.extraTraining ?? []);
  const test = data.filter((_, i) => assignment[i] === split.fold);
  return { model: modelFromFile(trainModel(train, config), config.clusters, config.vectors), test };
}

/** The result of a cross-validation from its folds' scores, in fold order. */
export function summarizeFolds(perFold: Scores[], folds: number, seed: number): CvResult {
  const keys = [
    'detectionPrecision',
    'detectionRecall',
    'detectionF1',
    'polarityAccuracy',
  ] as const;
  const mean = {} as Scores;
  const std = {} as Scores;
  for (const key of keys) [mean[key], std[key]] = summarize(perFold, (s) => s[key]);
  return { folds, seed, foldsRun: perFold.length, perFold, mean, std };
}
