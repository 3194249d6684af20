import { attend, convolve, maxPool, pool } from './neural.js';

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
