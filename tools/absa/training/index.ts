export {
  benchmarkData,
  dealershipChallenge,
  dealershipData,
  SEED,
  THRESHOLD_REPEATS,
  THRESHOLD_SHRINK,
  trainConfig,
  TRANSFER_WEIGHT,
  WEAK_WEIGHT,
} from './configs.js';
export { summarizeFolds, trainFold } from './cross-validate.js';
export type { CvResult, TrainedFold } from './cross-validate.js';
export { readAspectCategoryXml } from './datasets.js';
export type { LabelledSentence } from './datasets.js';
export { readDealershipLabels } from './dealership-data.js';
export { SURVEY_QUESTION_CATEGORY, surveyWeakLabels } from './survey-labels.js';
export { stratifiedFolds } from './folds.js';
export { evaluate, toScores } from './metrics.js';
export type { EvaluationCounts, Scores } from './metrics.js';
export { repoRoot, sharedDataDir } from '../../paths.js';
export { chooseThresholds, scoreHeldOut, thresholdChoice } from './thresholds.js';
export type { ScoredSentence, ThresholdChoice } from './thresholds.js';
export { ensureTrainingEmbeddings, trainModel } from './train-model.js';
export type { TrainConfig } from './train-model.js';
