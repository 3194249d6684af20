/**
 * The parts of the ABSA models that training builds on: the same feature extraction, sentence
 * preparation and network forward passes the analyser runs, so a trained model scores exactly as
 * it was trained. The offline trainer (`tools/absa/training`) imports them from here; the service
 * itself does not use this surface.
 */
export type { WordClusters } from './internal/clusters.js';
export { anchorDistances, detectionFeatures, polarityFeatures } from './internal/features.js';
export type { FeatureBag, FeatureConfig } from './internal/features.js';
export { detectionForward } from './internal/detection-network.js';
export type { DetectionParams, NeuralDetection } from './internal/detection-network.js';
export { forward, LOCATION_BUCKETS, locationBuckets, tokenInputs } from './internal/neural.js';
export type { NeuralParams, NeuralPolarity } from './internal/neural.js';
export { embeddingTexts, prepareSentence } from './internal/prepare.js';
export type { PreparedSentence } from './internal/prepare.js';
export { categoryContext, detectionProbabilities } from './internal/score.js';
export {
  embedder,
  sharedSentenceEncoder,
  UNIVERSAL_SENTENCE_ENCODER,
} from './internal/sentence-encoder.js';
export type { SentenceEncoder } from './internal/sentence-encoder.js';
export type { WordVectors, WordVectorsHeader } from './internal/vectors.js';
