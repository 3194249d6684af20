import { createHash } from 'node:crypto';
import {
  anchorDistances,
  detectionFeatures,
  polarityFeatures,
  type FeatureBag,
  type FeatureConfig,
  type WordClusters,
  embedder,
  type SentenceEncoder,
  type WordVectors,
  embeddingTexts,
  prepareSentence,
  type PreparedSentence,
  categoryContext,
  tokenInputs,
  LOCATION_BUCKETS,
  locationBuckets,
  type NeuralDetection,
  type NeuralPolarity,
} from '../../../src/insights/absa/model-kit.js';
import {
  modelFromFile,
  type AbsaModelFile,
  type ModelName,
} from '../../../src/insights/absa/model.js';
import { POLARITIES, type AspectCategory } from '../../../src/insights/absa/types.js';
import type { LabelledSentence } from './datasets.js';
import { isTransfer } from './dealership-data.js';
import { trainLogistic } from './logistic.js';
import { trainDetectionNeural, trainNeural, type NeuralOptions } from './neural.js';
import { balancePolarity } from './polarity-balance.js';
import { trainSoftmax } from './softmax.js';
import { buildVocabulary, roundWeight, toSparseRow } from './vocabulary.js';

/** Everything that defines a trained model besides its data. */
export interface TrainConfig {
  name: ModelName;
  description: string;
  categories: AspectCategory[];
  features: FeatureConfig;
  atLeastOne: boolean;
  lexicon: Record<string, number>;
  detectL2: number;
  polarityL2: number;
  /** Detection probability threshold of every category not in `thresholds`. */
  threshold: number;
  /** Per-category detection thresholds, by category id. */
  thresholds?: Readonly<Record<string, number>>;
  /** Features seen in fewer training sentences than this are dropped. */
  minCount: number;
  maxIterations: number;
  /** Drop features whose largest absolute weight is below this, to keep model files small. */
  prune: { detect: number; polarity: number };
  /** The shared word clusters, needed when `features.clusters` is set. */
  clusters: WordClusters | null;
  /** The shared word vectors, needed when the features or the network use them. */
  vectors: WordVectors | null;
  /**
   * The sentence encoder, needed when `features.sentenceEmbedding` is set; the training texts must
   * have been prepared with `ensureTrainingEmbeddings`.
   */
  encoder: SentenceEncoder | null;
  /**
   * Detection and polarity networks to train too (they need `vectors`): one per options entry
   * (several seeds make an average), each ensembled with the linear model with weight `mix`.
   */
  neural?: {
    detection: (NeuralOptions & { mix: number })[];
    polarity: (NeuralOptions & { mix: number })[];
  };
  /**
   * Balances each category's in-domain examples for the linear polarity model (not the polarity
   * networks): where one side (positive or negative) weighs at least `minRatio` times the other,
   * the rarer side's examples weigh that ratio more, at most `cap`. Restaurant transfer sentences
   * (`isTransfer`) are neither counted nor reweighed.
   */
  polarityBalance?: { cap: number; minRatio: number };
}

type Weights = Record<string, number[]>;

function trainDetection(
  allPrepared: PreparedSentence[],
  allData: readonly LabelledSentence[],
  config: Pick<
    TrainConfig,
    | 'features'
    | 'minCount'
    | 'categories'
    | 'detectL2'
    | 'maxIterations'
    | 'threshold'
    | 'thresholds'
    | 'prune'
  >,
): AbsaModelFile['detect'] {
  const prepared = allPrepared.filter((_, i) => !allData[i]!.polarityOnly);
  const data = allData.filter((s) => !s.polarityOnly);
  const bags = prepared.map((p) => detectionFeatures(p, config.features));
  const vocab = buildVocabulary(bags, config.minCount);
  const rows = bags.map((b) => toSparseRow(b, vocab));
  const sampleWeights = data.map((s) => s.weight ?? 1);
  const k = config.categories.length;
  const table = vocab.names.map(() => new Array<number>(k).fill(0));
  const bias: number[] = [];
  config.categories.forEach((category, c) => {
    const labels = data.map((s) => (s.aspects.some((a) => a.category === category.id) ? 1 : 0));
    const weights = data.map((s, i) =>
      s.unlabelled?.includes(category.id) ? 0 : sampleWeights[i]!,
    );
    const w = trainLogistic(
      rows,
      labels,
      vocab.names.length,
      { l2: config.detectL2 / 2, maxIterations: config.maxIterations },
      weights,
    );
    for (let f = 0; f < vocab.names.length; f++) table[f]![c] = w.weights[f]!;
    bias.push(roundWeight(w.bias));
  });
  return {
    bias,
    threshold: config.categories.map((c) => config.thresholds?.[c.id] ?? config.threshold),
    weights: toTable(vocab.names, table, config.prune.detect),
  };
}

/**
 * The word weights of a detector trained without the sentence embedding, for a model whose
 * detector uses one: they pick each category's clause for polarity as the detection weights of a
 * model without an embedding do (with the embedding in the detector, "Great food but the service
 * was dreadful!" anchored food in the second clause).
 */
function trainAnchors(
  prepared: PreparedSentence[],
  data: readonly LabelledSentence[],
  config: TrainConfig,
): Record<string, number[]> {
  const features = { ...config.features, sentenceEmbedding: undefined };
  const words = trainDetection(prepared, data, { ...config, features }).weights;
  return Object.fromEntries(Object.entries(words).filter(([name]) => name.startsWith('w:')));
}

/** Rounded weight rows by feature name, dropping rows whose largest weight is below `prune`. */
function toTable(names: readonly string[], table: readonly number[][], prune: number): Weights {
  const out: Weights = {};
  names.forEach((name, f) => {
    const row = table[f]!.map((x) => roundWeight(x));
    if (row.some((x) => x !== 0 && Math.abs(x) >= prune)) out[name] = row;
  });
  return out;
}

function trainPolarity(
  prepared: PreparedSentence[],
  data: readonly LabelledSentence[],
  file: AbsaModelFile,
  config: TrainConfig,
): AbsaModelFile['polarity'] {
  const model = modelFromFile(file, config.clusters, config.vectors);
  const bags: FeatureBag[] = [];
  const labels: number[] = [];
  const sampleWeights: number[] = [];
  const categoriesOf: number[] = [];
  const inDomain: boolean[] = [];
  data.forEach((s, i) => {
    if (s.detectionOnly) return;
    for (const a of s.aspects) {
      const k = config.categories.findIndex((c) => c.id === a.category);
      if (k < 0) continue;
      bags.push(
        polarityFeatures(prepared[i]!, categoryContext(model, k), model.lexicon, config.features),
      );
      labels.push(POLARITIES.indexOf(a.polarity));
      sampleWeights.push(s.weight ?? 1);
      categoriesOf.push(k);
      inDomain.push(!isTransfer(s));
    }
  });
  if (config.polarityBalance) {
    balancePolarity(categoriesOf, inDomain, labels, sampleWeights, config.polarityBalance);
  }
  const vocab = buildVocabulary(bags, config.minCount);
  const rows = bags.map((b) => toSparseRow(b, vocab));
  const w = trainSoftmax(
    rows,
    labels,
    vocab.names.length,
    { classes: POLARITIES.length, l2: config.polarityL2, maxIterations: config.maxIterations },
    sampleWeights,
  );
  const kk = POLARITIES.length;
  const table = vocab.names.map((_, f) => Array.from(w.weights.subarray(f * kk, f * kk + kk)));
  return {
    bias: Array.from(w.bias, (x) => roundWeight(x)),
    weights: toTable(vocab.names, table, config.prune.polarity),
  };
}

const round = (a: Float64Array): number[] => Array.from(a, (x) => roundWeight(x));
const rows = (a: Float64Array, width: number): number[][] =>
  Array.from({ length: a.length / width }, (_, r) =>
    round(a.subarray(r * width, r * width + width)),
  );

function trainDetectionNetwork(
  allPrepared: PreparedSentence[],
  allData: readonly LabelledSentence[],
  config: TrainConfig,
  options: NeuralOptions & { mix: number },
): NeuralDetection {
  if (!config.vectors) throw new Error('the detection network needs word vectors');
  const lexicon = new Map(Object.entries(config.lexicon));
  const examples = allData.flatMap((s, i) => {
    if (s.polarityOnly) return [];
    // Its loss has no per-category weights: partly labelled sentences would teach it wrong negatives.
    if (s.unlabelled?.length) throw new Error(`the detection network needs full labels: ${s.id}`);
    const labels = new Uint8Array(config.categories.length);
    config.categories.forEach((c, k) => {
      labels[k] = s.aspects.some((a) => a.category === c.id) ? 1 : 0;
    });
    return [{ ...tokenInputs(allPrepared[i]!, lexicon), labels, weight: s.weight ?? 1 }];
  });
  const net = trainDetectionNeural(
    examples,
    config.vectors.dim + 3,
    config.categories.length,
    options,
  );
  return {
    hidden: net.hidden,
    input: net.input,
    conv: round(net.conv),
    convBias: round(net.convBias),
    query: rows(net.query, net.hidden),
    out: rows(net.out, 2 * net.hidden),
    outBias: round(net.outBias),
    mix: options.mix,
  };
}

function trainPolarityNetwork(
  prepared: PreparedSentence[],
  data: readonly LabelledSentence[],
  file: AbsaModelFile,
  config: TrainConfig,
  options: NeuralOptions & { mix: number },
): NeuralPolarity {
  if (!config.vectors) throw new Error('the polarity network needs word vectors');
  const lexicon = new Map(Object.entries(config.lexicon));
  // The anchors that locate a category come from the detector, as at prediction.
  const model = modelFromFile(file, config.clusters, config.vectors);
  const examples = data.flatMap((s, i) => {
    if (s.detectionOnly) return [];
    const p = prepared[i]!;
    const { x, length } = tokenInputs(p, lexicon);
    return s.aspects.flatMap((a) => {
      const category = config.categories.findIndex((c) => c.id === a.category);
      if (category < 0) return [];
      const label = POLARITIES.indexOf(a.polarity);
      const distances = options.location
        ? anchorDistances(p, categoryContext(model, category), config.features.anchorThreshold)
        : null;
      const buckets = distances ? locationBuckets(distances) : undefined;
      return [{ x, length, category, label, weight: s.weight ?? 1, ...(buckets && { buckets }) }];
    });
  });
  const k = POLARITIES.length;
  const net = trainNeural(examples, config.vectors.dim + 3, k, config.categories.length, options);
  return {
    hidden: net.hidden,
    input: net.input,
    conv: round(net.conv),
    convBias: round(net.convBias),
    query: rows(net.query, net.hidden),
    out: round(net.out),
    outBias: rows(net.outBias, k),
    mix: options.mix,
    ...(net.location ? { location: rows(net.location, LOCATION_BUCKETS) } : {}),
  };
}

/**
 * Trains a complete ABSA model (category detection, then category polarity) on labelled sentences
 * and returns its file content. Deterministic: the same data and config give the same bytes.
 */
export function trainModel(data: readonly LabelledSentence[], config: TrainConfig): AbsaModelFile {
  const prepared = data.map((s) =>
    prepareSentence(s.text, config.clusters, 0, 'en', config.vectors, embedder(config.encoder)),
  );
  const file: AbsaModelFile = {
    format: 'dealer-reviews-absa/1',
    name: config.name,
    version: '',
    description: config.description,
    categories: config.categories,
    features: config.features,
    atLeastOne: config.atLeastOne,
    lexicon: config.lexicon,
    detect: trainDetection(prepared, data, config),
    polarity: { bias: [], weights: {} },
  };
  if (config.features.sentenceEmbedding?.detect)
    file.anchors = trainAnchors(prepared, data, config);
  file.polarity = trainPolarity(prepared, data, file, config);
  if (config.neural) {
    const { detection, polarity } = config.neural;
    file.neural = {
      detection: detection.map((o) => trainDetectionNetwork(prepared, data, config, o)),
      polarity: polarity.map((o) => trainPolarityNetwork(prepared, data, file, config, o)),
    };
  }
  const hash = createHash('sha256')
    .update(
      JSON.stringify([
        file.detect,
        ...(file.anchors ? [file.anchors] : []),
        file.polarity,
        file.neural ?? null,
      ]),
    )
    .digest('hex');
  file.version = hash.slice(0, 12);
  return file;
}

/** Encodes the sentences a configuration with a sentence encoder trains or is scored on. */
export async function ensureTrainingEmbeddings(
  config: TrainConfig,
  data: readonly LabelledSentence[],
): Promise<void> {
  await config.encoder?.ensure(data.flatMap((s) => embeddingTexts(s.text)));
}
