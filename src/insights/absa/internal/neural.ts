import type { PreparedSentence } from './prepare.js';

/**
 * A small neural polarity scorer over the shared word vectors: a window-3 convolution turns each
 * token (its word vector, lexicon scores and negation flag) into a hidden vector; a query vector per
 * category attends over the tokens (so two categories of one sentence read different words); the
 * attended vector and the max-pooled vector give the polarity logits. Its log-probabilities are
 * added to the linear model's (an ensemble), with the weight stored in the model file.
 */
export interface NeuralPolarity {
  /** Hidden units. */
  hidden: number;
  /** Inputs per token: vector dimension + 3 (lexicon, induced sentiment, negation). */
  input: number;
  /** Convolution weights, `hidden × (3 × input)` row-major, and biases. */
  conv: number[];
  convBias: number[];
  /** One attention query (`hidden` values) per category. */
  query: number[][];
  /** Output weights, `classes × (2 × hidden)` row-major, and per-category biases. */
  out: number[];
  outBias: number[][];
  /** Weight of the network's log-probabilities when added to the linear model's. */
  mix: number;
  /**
   * Where the aspect is, for the attention: per category, one weight per distance bucket
   * ({@link locationBucket}); a token's weight for its distance to the nearest anchor of the
   * category is added to its attention score. Absent: the attention reads the hidden vectors alone.
   */
  location?: number[][];
}

/** Distance buckets of `NeuralPolarity.location`: 0, 1, 2, 3, 4 to 5, and 6 or more tokens. */
export const LOCATION_BUCKETS = 6;

/** The bucket of a token's distance to the nearest anchor of a category. */
export function locationBucket(distance: number): number {
  return distance <= 3 ? distance : distance <= 5 ? 4 : 5;
}

/** Each token's distance bucket, from its distances to the nearest anchor. */
export function locationBuckets(distances: ArrayLike<number>): Uint8Array {
  return Uint8Array.from(distances, locationBucket);
}

/** The network's parameters as flat typed arrays (training and fast inference share this shape). */
export interface NeuralParams {
  hidden: number;
  input: number;
  classes: number;
  conv: Float64Array;
  convBias: Float64Array;
  query: Float64Array;
  out: Float64Array;
  outBias: Float64Array;
  /** See {@link NeuralPolarity.location}: `categories × LOCATION_BUCKETS` row-major. */
  location?: Float64Array;
}

/** Token inputs of a sentence: `tokens × input` values (vector, lexicon, induced score, negated). */
export function tokenInputs(
  p: PreparedSentence,
  lexicon: ReadonlyMap<string, number>,
): { x: Float64Array; length: number } {
  const vectors = p.vectors!;
  const dim = vectors.dim;
  const input = dim + 3;
  const length = p.words.length;
  const x = new Float64Array(length * input);
  for (let t = 0; t < length; t++) {
    const base = t * input;
    const row = p.vec[t]!;
    const sign = p.negated[t] ? -0.74 : 1;
    if (row >= 0) {
      const from = row * dim;
      for (let d = 0; d < dim; d++) x[base + d] = 3 * vectors.data[from + d]!;
      x[base + dim + 1] = sign * vectors.sentiment[row]!;
    }
    x[base + dim] = (sign * (lexicon.get(p.words[t]!) ?? 0)) / 4;
    x[base + dim + 2] = p.negated[t] ? 1 : 0;
  }
  return { x, length };
}

/** Intermediate values of one forward pass, kept for back-propagation. */
export interface Forward {
  /** Hidden vectors, `length × hidden`. */
  h: Float64Array;
  /** Attention weights per token. */
  alpha: Float64Array;
  /** Token index of the maximum of each hidden unit. */
  argmax: Int32Array;
  /** Pooled features: attended vector then max-pooled vector. */
  f: Float64Array;
  logits: Float64Array;
}

/** Hidden vectors of a sentence (`max(1, length) × hidden`): the window-3 convolution, tanh. */
export function convolve(
  conv: Float64Array,
  convBias: Float64Array,
  hidden: number,
  input: number,
  x: Float64Array,
  length: number,
): Float64Array {
  const H = hidden;
  const D = input;
  const h = new Float64Array(Math.max(1, length) * H);
  const window = 3 * D;
  for (let t = 0; t < length; t++) {
    for (let j = 0; j < H; j++) {
      let z = convBias[j]!;
      const w = j * window;
      for (let o = -1; o <= 1; o++) {
        const s = t + o;
        if (s < 0 || s >= length) continue;
        const xb = s * D;
        const wb = w + (o + 1) * D;
        for (let d = 0; d < D; d++) z += conv[wb + d]! * x[xb + d]!;
      }
      h[t * H + j] = Math.tanh(z);
    }
  }
  return h;
}

/**
 * Attention weights of the tokens for one query (a softmax of query · hidden vector, plus each
 * token's `bias` when given).
 */
export function attend(
  h: Float64Array,
  n: number,
  hidden: number,
  query: Float64Array,
  offset: number,
  bias?: Float64Array,
): Float64Array {
  const H = hidden;
  const alpha = new Float64Array(n);
  let max = -Infinity;
  for (let t = 0; t < n; t++) {
    let e = bias ? bias[t]! : 0;
    for (let j = 0; j < H; j++) e += query[offset + j]! * h[t * H + j]!;
    alpha[t] = e;
    if (e > max) max = e;
  }
  let sum = 0;
  for (let t = 0; t < n; t++) sum += alpha[t] = Math.exp(alpha[t]! - max);
  for (let t = 0; t < n; t++) alpha[t]! /= sum;
  return alpha;
}

/** Max-pooled hidden vector and the token index of each maximum. */
export function maxPool(
  h: Float64Array,
  n: number,
  hidden: number,
): { m: Float64Array; argmax: Int32Array } {
  const m = new Float64Array(hidden).fill(-Infinity);
  const argmax = new Int32Array(hidden);
  for (let t = 0; t < n; t++) {
    for (let j = 0; j < hidden; j++) {
      const v = h[t * hidden + j]!;
      if (v > m[j]!) {
        m[j] = v;
        argmax[j] = t;
      }
    }
  }
  return { m, argmax };
}

/** The attended vector `sum(alpha[t] * h[t])` added into `f` at `offset`. */
export function pool(
  h: Float64Array,
  n: number,
  hidden: number,
  alpha: Float64Array,
  f: Float64Array,
  offset: number,
): void {
  for (let t = 0; t < n; t++) {
    const a = alpha[t]!;
    for (let j = 0; j < hidden; j++) f[offset + j]! += a * h[t * hidden + j]!;
  }
}

/** Forward pass of the polarity network for one sentence and one category. */
export function forward(
  net: NeuralParams,
  x: Float64Array,
  length: number,
  category: number,
  buckets?: Uint8Array,
): Forward {
  const h = convolve(net.conv, net.convBias, net.hidden, net.input, x, length);
  return { h, ...polarityHead(net, h, length, category, buckets) };
}

/**
 * The polarity network above the convolution, for one category: attention, pooling and output.
 * The hidden vectors do not depend on the category, so a sentence's categories can share them.
 */
export function polarityHead(
  net: NeuralParams,
  h: Float64Array,
  length: number,
  category: number,
  buckets?: Uint8Array,
): Omit<Forward, 'h'> {
  const { hidden: H, classes: K } = net;
  const n = Math.max(1, length);
  const { location } = net;
  const offset = category * LOCATION_BUCKETS;
  const bias =
    location && buckets ? Float64Array.from(buckets, (b) => location[offset + b]!) : undefined;
  const alpha = attend(h, n, H, net.query, category * H, bias);
  const f = new Float64Array(2 * H);
  pool(h, n, H, alpha, f, 0);
  const { m, argmax } = maxPool(h, n, H);
  f.set(m, H);
  const logits = new Float64Array(K);
  for (let k = 0; k < K; k++) {
    let z = net.outBias[category * K + k]!;
    for (let i = 0; i < 2 * H; i++) z += net.out[k * 2 * H + i]! * f[i]!;
    logits[k] = z;
  }
  return { alpha, argmax, f, logits };
}

/** The stored network as flat arrays, for {@link forward}. */
export function neuralParams(file: NeuralPolarity, classes: number): NeuralParams {
  return {
    hidden: file.hidden,
    input: file.input,
    classes,
    conv: Float64Array.from(file.conv),
    convBias: Float64Array.from(file.convBias),
    query: Float64Array.from(file.query.flat()),
    out: Float64Array.from(file.out),
    outBias: Float64Array.from(file.outBias.flat()),
    ...(file.location ? { location: Float64Array.from(file.location.flat()) } : {}),
  };
}

/**
 * Log-probabilities of each polarity for one category, from the sentence's hidden vectors
 * (`convolve` of its token inputs with this network's convolution).
 */
export function neuralLogProbabilities(
  net: NeuralParams,
  h: Float64Array,
  length: number,
  category: number,
  buckets?: Uint8Array,
): number[] {
  const { logits } = polarityHead(net, h, length, category, buckets);
  let max = -Infinity;
  for (const z of logits) if (z > max) max = z;
  let sum = 0;
  for (const z of logits) sum += Math.exp(z - max);
  const log = Math.log(sum) + max;
  return Array.from(logits, (z) => z - log);
}
