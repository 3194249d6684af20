import { seededRandom } from '../../../src/domain/random.js';
import { optimise } from './optimise.js';
import {
  detectionForward,
  forward,
  LOCATION_BUCKETS,
  type DetectionParams,
  type NeuralParams,
} from '../../../src/insights/absa/model-kit.js';

/** One training example of the polarity network: a sentence's token inputs and a category. */
export interface NeuralExample {
  x: Float64Array;
  length: number;
  category: number;
  label: number;
  weight: number;
  /** Each token's distance bucket to the category's anchors, for a network with location weights. */
  buckets?: Uint8Array;
}

/** Training options of {@link trainNeural}. */
export interface NeuralOptions {
  hidden: number;
  epochs: number;
  learningRate: number;
  batch: number;
  /** Dropout rate on the pooled features during training. */
  dropout: number;
  /** L2 weight decay on weights (not biases). */
  l2: number;
  seed: number;
  /** Starting location weights of every category, one per distance bucket; absent: none. */
  location?: readonly number[];
}

function init(size: number, scale: number, random: () => number): Float64Array {
  const a = new Float64Array(size);
  for (let i = 0; i < size; i++) a[i] = (random() * 2 - 1) * scale;
  return a;
}

/** Back-propagates hidden-vector gradients `dh` through the tanh convolution into its gradients. */
function convBackward(
  gConv: Float64Array,
  gBias: Float64Array,
  h: Float64Array,
  dh: Float64Array,
  x: Float64Array,
  length: number,
  H: number,
  D: number,
): void {
  const window = 3 * D;
  for (let t = 0; t < length; t++) {
    for (let j = 0; j < H; j++) {
      const v = h[t * H + j]!;
      const dz = dh[t * H + j]! * (1 - v * v);
      if (dz === 0) continue;
      gBias[j]! += dz;
      const w = j * window;
      for (let o = -1; o <= 1; o++) {
        const s = t + o;
        if (s < 0 || s >= length) continue;
        const xb = s * D;
        const wb = w + (o + 1) * D;
        for (let d = 0; d < D; d++) gConv[wb + d]! += dz * x[xb + d]!;
      }
    }
  }
}

/** Gradients of attention pooling `f = sum(alpha[t] h[t])` with `alpha = softmax(q . h[t])`. */
function attentionBackward(
  h: Float64Array,
  n: number,
  H: number,
  alpha: Float64Array,
  ds: Float64Array,
  query: Float64Array,
  gQuery: Float64Array,
  offset: number,
  dh: Float64Array,
  location?: { buckets: Uint8Array; grad: Float64Array; offset: number },
): void {
  const dAlpha = new Float64Array(n);
  let weighted = 0;
  for (let t = 0; t < n; t++) {
    let s = 0;
    const a = alpha[t]!;
    for (let j = 0; j < H; j++) {
      s += ds[j]! * h[t * H + j]!;
      dh[t * H + j]! += a * ds[j]!;
    }
    dAlpha[t] = s;
    weighted += a * s;
  }
  for (let t = 0; t < n; t++) {
    const de = alpha[t]! * (dAlpha[t]! - weighted);
    if (de === 0) continue;
    if (location) location.grad[location.offset + location.buckets[t]!]! += de;
    for (let j = 0; j < H; j++) {
      gQuery[offset + j]! += de * h[t * H + j]!;
      dh[t * H + j]! += de * query[offset + j]!;
    }
  }
}

/** Gradient arrays, one per parameter array of a network. */
export interface Gradients {
  conv: Float64Array;
  convBias: Float64Array;
  query: Float64Array;
  out: Float64Array;
  outBias: Float64Array;
  location?: Float64Array;
}

/**
 * Adds the gradients of one example's weighted cross-entropy loss (polarity network, dropout
 * `mask` on the pooled features) to `grads`, and returns the loss.
 */
export function polarityGradients(
  net: NeuralParams,
  ex: NeuralExample,
  mask: Float64Array,
  grads: Gradients,
): number {
  const { hidden: H, input: D, classes: K } = net;
  const c = ex.category;
  const fw = forward(net, ex.x, ex.length, c, ex.buckets);
  const n = Math.max(1, ex.length);
  const probs = new Float64Array(K);
  let max = -Infinity;
  for (let k = 0; k < K; k++) {
    let z = net.outBias[c * K + k]!;
    for (let i = 0; i < 2 * H; i++) z += net.out[k * 2 * H + i]! * fw.f[i]! * mask[i]!;
    probs[k] = z;
    if (z > max) max = z;
  }
  let sum = 0;
  for (let k = 0; k < K; k++) sum += probs[k] = Math.exp(probs[k]! - max);
  const df = new Float64Array(2 * H);
  for (let k = 0; k < K; k++) {
    const g = (probs[k]! / sum - (k === ex.label ? 1 : 0)) * ex.weight;
    grads.outBias[c * K + k]! += g;
    for (let i = 0; i < 2 * H; i++) {
      grads.out[k * 2 * H + i]! += g * fw.f[i]! * mask[i]!;
      df[i]! += g * net.out[k * 2 * H + i]! * mask[i]!;
    }
  }
  const dh = new Float64Array(n * H);
  for (let j = 0; j < H; j++) dh[fw.argmax[j]! * H + j]! += df[H + j]!;
  const location =
    net.location && grads.location && ex.buckets
      ? { buckets: ex.buckets, grad: grads.location, offset: c * LOCATION_BUCKETS }
      : undefined;
  attentionBackward(fw.h, n, H, fw.alpha, df, net.query, grads.query, c * H, dh, location);
  convBackward(grads.conv, grads.convBias, fw.h, dh, ex.x, ex.length, H, D);
  return -Math.log(probs[ex.label]! / sum) * ex.weight;
}

/**
 * Adds the gradients of one sentence's weighted binary cross-entropy loss (detection network, all
 * categories) to `grads`, and returns the loss.
 */
export function detectionGradients(
  net: DetectionParams,
  ex: DetectionExample,
  mask: Float64Array,
  grads: Gradients,
): number {
  const { hidden: H, input: D, categories: C } = net;
  const fw = detectionForward(net, ex.x, ex.length);
  const n = Math.max(1, ex.length);
  const dh = new Float64Array(n * H);
  const dm = new Float64Array(H);
  const df = new Float64Array(2 * H);
  let loss = 0;
  for (let c = 0; c < C; c++) {
    const f = fw.f[c]!;
    const o = c * 2 * H;
    let z = net.outBias[c]!;
    for (let i = 0; i < 2 * H; i++) z += net.out[o + i]! * f[i]! * mask[i]!;
    const p = 1 / (1 + Math.exp(-z));
    loss -= ex.weight * Math.log(ex.labels[c] ? p : 1 - p);
    const g = (p - ex.labels[c]!) * ex.weight;
    grads.outBias[c]! += g;
    for (let i = 0; i < 2 * H; i++) {
      grads.out[o + i]! += g * f[i]! * mask[i]!;
      df[i] = g * net.out[o + i]! * mask[i]!;
    }
    for (let j = 0; j < H; j++) dm[j]! += df[H + j]!;
    attentionBackward(fw.h, n, H, fw.alpha[c]!, df, net.query, grads.query, c * H, dh);
  }
  for (let j = 0; j < H; j++) dh[fw.argmax[j]! * H + j]! += dm[j]!;
  convBackward(grads.conv, grads.convBias, fw.h, dh, ex.x, ex.length, H, D);
  return loss;
}

/**
 * Trains the polarity network ({@link forward}) with Adam on mini-batches, a seeded shuffle and
 * seeded dropout: the same examples and options give bit-identical weights.
 */
export function trainNeural(
  examples: readonly NeuralExample[],
  input: number,
  classes: number,
  categories: number,
  options: NeuralOptions,
): NeuralParams {
  const random = seededRandom(options.seed);
  const H = options.hidden;
  const D = input;
  const K = classes;
  const window = 3 * D;
  const net: NeuralParams = {
    hidden: H,
    input: D,
    classes: K,
    conv: init(H * window, Math.sqrt(6 / (window + H)), random),
    convBias: new Float64Array(H),
    query: init(categories * H, 0.1, random),
    out: init(K * 2 * H, Math.sqrt(6 / (2 * H + K)), random),
    outBias: new Float64Array(categories * K),
    ...(options.location && {
      location: Float64Array.from(
        { length: categories * LOCATION_BUCKETS },
        (_, i) => options.location![i % LOCATION_BUCKETS]!,
      ),
    }),
  };
  optimise(net, examples, options, random, polarityGradients);
  return net;
}

/** One training sentence of the detection network: token inputs and a 0/1 label per category. */
export interface DetectionExample {
  x: Float64Array;
  length: number;
  labels: Uint8Array;
  weight: number;
}

/**
 * Trains the detection network ({@link detectionForward}): one sigmoid output per category, the
 * same optimiser, seeded shuffle and seeded dropout as {@link trainNeural}.
 */
export function trainDetectionNeural(
  examples: readonly DetectionExample[],
  input: number,
  categories: number,
  options: NeuralOptions,
): DetectionParams {
  const random = seededRandom(options.seed);
  const H = options.hidden;
  const D = input;
  const C = categories;
  const window = 3 * D;
  const net: DetectionParams = {
    hidden: H,
    input: D,
    categories: C,
    conv: init(H * window, Math.sqrt(6 / (window + H)), random),
    convBias: new Float64Array(H),
    query: init(C * H, 0.1, random),
    out: init(C * 2 * H, Math.sqrt(6 / (2 * H + 1)), random),
    outBias: new Float64Array(C),
  };
  optimise(net, examples, options, random, detectionGradients);
  return net;
}
