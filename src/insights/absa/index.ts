export { analyzeReview, createReviewAnalyzer, ensureReviewEmbeddings } from './analyze.js';
export type {
  AnalyzedSentence,
  ReviewAnalysis,
  ReviewAnalyzer,
  SentenceAspect,
} from './analyze.js';
export {
  loadModel,
  loadWordClusters,
  loadWordVectors,
  modelFromFile,
  MODEL_NAMES,
} from './model.js';
export type { AbsaModel, AbsaModelFile, ModelName } from './model.js';
export { categoryIndex, ensureEmbeddings, predict } from './predict.js';
export { splitSentences } from './sentences.js';
export type { SentenceSpan } from './sentences.js';
export { DEALERSHIP_CATEGORIES, MAMS_CATEGORIES, SEMEVAL14_CATEGORIES } from './taxonomy.js';
export { POLARITIES } from './types.js';
export type { AspectCategory, AspectPolarity, Polarity } from './types.js';
