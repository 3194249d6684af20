import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  parseWordClusters,
  type WordClusters,
  type WordClustersFile,
} from './internal/clusters.js';
import type { FeatureConfig } from './internal/features.js';
import {
  detectionParams,
  type DetectionParams,
  type NeuralDetection,
} from './internal/detection-network.js';
import { neuralParams, type NeuralParams, type NeuralPolarity } from './internal/neural.js';
import { sharedSentenceEncoder, type SentenceEncoder } from './internal/sentence-encoder.js';
import { parseWordVectors, type WordVectors } from './internal/vectors.js';
import type { AspectCategory } from './types.js';

/** The shipped models. */
export const MODEL_NAMES = ['semeval14-restaurants', 'mams-acsa', 'dealership'] as const;
/** Name of a shipped model: the file `models/<name>.json`. */
export type ModelName = (typeof MODEL_NAMES)[number];

/** The JSON layout of a shipped model file (`models/<name>.json`). */
export interface AbsaModelFile {
  format: 'dealer-reviews-absa/1';
  name: ModelName;
  /** Content hash of the weights: changes whenever the trained model changes. */
  version: string;
  description: string;
  categories: AspectCategory[];
  features: FeatureConfig;
  /** Always report at least one category per sentence (SemEval and MAMS label every sentence). */
  atLeastOne: boolean;
  /** Sentiment lexicon: word to valence in [-4, 4]. */
  lexicon: Record<string, number>;
  detect: { bias: number[]; threshold: number[]; weights: Record<string, number[]> };
  /**
   * Word weights per category that mark a category's words for polarity (its anchors), when they
   * are not the detection weights: a detector that also sees a sentence embedding leaves less
   * weight on the words, so the anchors come from a detector trained on the words alone.
   */
  anchors?: Record<string, number[]>;
  polarity: { bias: number[]; weights: Record<string, number[]> };
  /** Optional networks over the word vectors, ensembled with the linear models. */
  neural?: { detection: NeuralDetection[]; polarity: NeuralPolarity[] };
}

/** The part of a model file a loaded model keeps as it is. */
type AbsaModelHeader = Pick<
  AbsaModelFile,
  'name' | 'version' | 'description' | 'categories' | 'features' | 'atLeastOne'
>;

/** A model ready for prediction: the file's content with its tables as maps. */
export interface AbsaModel extends AbsaModelHeader {
  lexicon: Map<string, number>;
  detectBias: number[];
  detectThreshold: number[];
  detectWeights: Map<string, number[]>;
  /** Word weights that pick a category's clause for polarity (`w:word` keys). */
  anchorWeights: Map<string, number[]>;
  polarityBias: number[];
  polarityWeights: Map<string, number[]>;
  /** Detection networks with their ensemble weights (none for a purely linear model). */
  neuralDetection: { params: DetectionParams; mix: number }[];
  /** Polarity networks with their ensemble weights. */
  neuralPolarity: { params: NeuralParams; mix: number }[];
  /** Word clusters when the model uses them. */
  clusters: WordClusters | null;
  /** Word vectors when the model uses them. */
  vectors: WordVectors | null;
  /**
   * The pretrained sentence encoder when the model uses one: texts must be prepared with
   * `ensureEmbeddings` (or `ensureReviewEmbeddings`) before they are scored.
   */
  encoder: SentenceEncoder | null;
}

/**
 * Turns the JSON content of a model file (and the shared word clusters and vectors) into a ready
 * model. A model that uses a sentence encoder gets the process-wide one (loaded on first use).
 */
export function modelFromFile(
  file: AbsaModelFile,
  clusters: WordClusters | null,
  vectors: WordVectors | null = null,
): AbsaModel {
  if (file.format !== 'dealer-reviews-absa/1') throw new Error('unknown ABSA model format');
  if (file.features.clusters && !clusters) throw new Error('this ABSA model needs word clusters');
  const needsVectors = usesVectors(file);
  if (needsVectors && !vectors) throw new Error('this ABSA model needs word vectors');
  const detectWeights = new Map(Object.entries(file.detect.weights));
  return {
    name: file.name,
    version: file.version,
    description: file.description,
    categories: file.categories,
    features: file.features,
    atLeastOne: file.atLeastOne,
    lexicon: new Map(Object.entries(file.lexicon)),
    detectBias: file.detect.bias,
    detectThreshold: file.detect.threshold,
    detectWeights,
    // A model without anchors of its own anchors on its detection weights: the same read-only map.
    anchorWeights: file.anchors ? new Map(Object.entries(file.anchors)) : detectWeights,
    polarityBias: file.polarity.bias,
    polarityWeights: new Map(Object.entries(file.polarity.weights)),
    neuralDetection: (file.neural?.detection ?? []).map((n) => ({
      params: detectionParams(n),
      mix: n.mix,
    })),
    neuralPolarity: (file.neural?.polarity ?? []).map((n) => ({
      params: neuralParams(n, file.polarity.bias.length),
      mix: n.mix,
    })),
    clusters: file.features.clusters ? clusters : null,
    vectors: needsVectors ? vectors : null,
    encoder: file.features.sentenceEmbedding
      ? sharedSentenceEncoder(file.features.sentenceEmbedding.encoder)
      : null,
  };
}

/** True when a model's features need the shared word vectors. */
export function usesVectors(file: Pick<AbsaModelFile, 'features' | 'neural'>): boolean {
  const f = file.features;
  return Boolean(f.vectors || f.polarityVectors || f.induced || file.neural);
}

/** The `models/` folder of the repository this module belongs to (from `src/` or `dist/src/`). */
export function defaultModelDir(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'models')))
      return join(dir, 'models');
    dir = dirname(dir);
  }
  throw new Error('cannot find the models folder');
}

/**
 * Loads a shipped ABSA model from `models/<name>.json` (or from `dir` when given). Synchronous and
 * offline: the file is part of the repository, written by `npm run train`. Loading takes tens of
 * milliseconds, so callers should load once and reuse the model.
 */
export function loadModel(name: ModelName, dir: string = defaultModelDir()): AbsaModel {
  if (!MODEL_NAMES.includes(name)) throw new Error(`unknown ABSA model: ${String(name)}`);
  const file = JSON.parse(readFileSync(join(dir, `${name}.json`), 'utf8')) as AbsaModelFile;
  return modelFromFile(
    file,
    file.features.clusters ? loadWordClusters(dir) : null,
    usesVectors(file) ? loadWordVectors(dir) : null,
  );
}

const clusterCache = new Map<string, WordClusters>();

/**
 * Loads the word clusters shared by the models (`word-clusters.json` in `dir`), once per folder:
 * later calls return the same map.
 */
export function loadWordClusters(dir: string = defaultModelDir()): WordClusters {
  let clusters = clusterCache.get(dir);
  if (!clusters) {
    const file = JSON.parse(
      readFileSync(join(dir, 'word-clusters.json'), 'utf8'),
    ) as WordClustersFile;
    clusters = parseWordClusters(file);
    clusterCache.set(dir, clusters);
  }
  return clusters;
}

const vectorCache = new Map<string, WordVectors>();

/**
 * Loads the word vectors shared by the models (`word-vectors.bin` in `dir`), once per folder:
 * later calls return the same vectors.
 */
export function loadWordVectors(dir: string = defaultModelDir()): WordVectors {
  let vectors = vectorCache.get(dir);
  if (!vectors) {
    vectors = parseWordVectors(readFileSync(join(dir, 'word-vectors.bin')));
    vectorCache.set(dir, vectors);
  }
  return vectors;
}
