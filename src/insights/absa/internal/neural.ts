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

/** Attention weights of the tokens for one query (a softmax of query · hidden vector). */
export function attend(
  h: Float64Array,
  n: number,
  hidden: number,
  query: Float64Array,
  offset: number,
): Float64Array {
  const H = hidden;
  const alpha = new Float64Array(n);
  let max = -Infinity;
  for (let t = 0; t < n; t++) {
    let e = 0;
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

/** The attended vector `sum(alpha[t] * h[t])` written into `f` at `offset`. */
function pool(
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
): Forward {
  const h = convolve(net.conv, net.convBias, net.hidden, net.input, x, length);
  return { h, ...polarityHead(net, h, length, category) };
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
): Omit<Forward, 'h'> {
  const { hidden: H, classes: K } = net;
  const n = Math.max(1, length);
  const alpha = attend(h, n, H, net.query, category * H);
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

/**
 * The detection network: the same convolution, one attention query and one output row per
 * category; its logit for a category is added (weighted) to the linear detector's.
 */
export interface NeuralDetection {
  hidden: number;
  input: number;
  conv: number[];
  convBias: number[];
  query: number[][];
  /** One row of `2 × hidden` output weights per category, and one bias per category. */
  out: number[][];
  outBias: number[];
  mix: number;
}

/** Flat parameters of the detection network. */
export interface DetectionParams {
  hidden: number;
  input: number;
  categories: number;
  conv: Float64Array;
  convBias: Float64Array;
  query: Float64Array;
  out: Float64Array;
  outBias: Float64Array;
}

/** Intermediate values of a detection forward pass. */
export interface DetectionForward {
  h: Float64Array;
  /** Attention weights, `categories × n`. */
  alpha: Float64Array[];
  argmax: Int32Array;
  /** Pooled features per category, `categories × 2 hidden`. */
  f: Float64Array[];
  logits: Float64Array;
}

/** Forward pass of the detection network for one sentence: one logit per category. */
export function detectionForward(
  net: DetectionParams,
  x: Float64Array,
  length: number,
): DetectionForward {
  const { hidden: H, input: D, categories: C } = net;
  const h = convolve(net.conv, net.convBias, H, D, x, length);
  const n = Math.max(1, length);
  const { m, argmax } = maxPool(h, n, H);
  const alpha: Float64Array[] = [];
  const f: Float64Array[] = [];
  const logits = new Float64Array(C);
  for (let c = 0; c < C; c++) {
    const a = attend(h, n, H, net.query, c * H);
    const fc = new Float64Array(2 * H);
    pool(h, n, H, a, fc, 0);
    fc.set(m, H);
    let z = net.outBias[c]!;
    for (let i = 0; i < 2 * H; i++) z += net.out[c * 2 * H + i]! * fc[i]!;
    alpha.push(a);
    f.push(fc);
    logits[c] = z;
  }
  return { h, alpha, argmax, f, logits };
}

/** The stored detection network as flat arrays. */
export function detectionParams(file: NeuralDetection): DetectionParams {
  return {
    hidden: file.hidden,
    input: file.input,
    categories: file.outBias.length,
    conv: Float64Array.from(file.conv),
    convBias: Float64Array.from(file.convBias),
    query: Float64Array.from(file.query.flat()),
    out: Float64Array.from(file.out.flat()),
    outBias: Float64Array.from(file.outBias),
  };
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
): number[] {
  const { logits } = polarityHead(net, h, length, category);
  let max = -Infinity;
  for (const z of logits) if (z > max) max = z;
  let sum = 0;
  for (const z of logits) sum += Math.exp(z - max);
  const log = Math.log(sum) + max;
  return Array.from(logits, (z) => z - log);
}
