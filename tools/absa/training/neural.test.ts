import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../../src/domain/random.js';
import {
  LOCATION_BUCKETS,
  type DetectionParams,
  type NeuralParams,
} from '../../../src/insights/absa/model-kit.js';
import {
  detectionGradients,
  polarityGradients,
  trainNeural,
  type DetectionExample,
  type Gradients,
  type NeuralExample,
} from './neural.js';
import { zeroGradients } from './optimise.js';

const H = 3;
const D = 4;
const random = seededRandom(42);
const fill = (n: number): Float64Array => Float64Array.from({ length: n }, () => random() * 2 - 1);
const zeros = zeroGradients;
/** A polarity network over two categories with random weights, and location weights if given. */
const polarityNet = (location?: Float64Array): NeuralParams => ({
  hidden: H,
  input: D,
  classes: 4,
  conv: fill(H * 3 * D),
  convBias: fill(H),
  query: fill(2 * H),
  out: fill(4 * 2 * H),
  outBias: fill(2 * 4),
  ...(location && { location }),
});
const ones = new Float64Array(2 * H).fill(1);
const x = fill(5 * D);

/**
 * Compares every analytic gradient with a central finite difference of the loss: the
 * back-propagation through output, max pooling, attention and convolution must be exact.
 */
function checkGradients<N extends Gradients>(net: N, loss: (grads: Gradients) => number): void {
  const grads = zeros(net);
  loss(grads);
  const eps = 1e-6;
  for (const key of ['conv', 'convBias', 'query', 'out', 'outBias', 'location'] as const) {
    const param = net[key];
    if (!param) continue;
    for (let i = 0; i < param.length; i++) {
      const saved = param[i]!;
      param[i] = saved + eps;
      const up = loss(zeros(net));
      param[i] = saved - eps;
      const down = loss(zeros(net));
      param[i] = saved;
      const numeric = (up - down) / (2 * eps);
      expect(grads[key]![i], `${key}[${i}]`).toBeCloseTo(numeric, 6);
    }
  }
}

describe('polarity network', () => {
  it('back-propagates the exact gradient of its loss', () => {
    const net = polarityNet();
    const ex: NeuralExample = { x, length: 5, category: 1, label: 2, weight: 0.7 };
    checkGradients(net, (grads) => polarityGradients(net, ex, ones, grads));
  });

  it("back-propagates into the weights of the aspect's location", () => {
    const net = polarityNet(fill(2 * LOCATION_BUCKETS));
    // Distances 2, 1, 0, 1, 2 from the anchor: category 1's buckets 0 to 2 learn, the rest do not.
    const buckets = Uint8Array.of(2, 1, 0, 1, 2);
    const ex: NeuralExample = { x, length: 5, category: 1, label: 0, weight: 1, buckets };
    const grads = zeros(net);
    polarityGradients(net, ex, ones, grads);
    const row = (c: number): number[] =>
      Array.from(grads.location!.subarray(c * LOCATION_BUCKETS, (c + 1) * LOCATION_BUCKETS));
    expect(row(1).map((g) => g !== 0)).toEqual([true, true, true, false, false, false]);
    expect(row(0).every((g) => g === 0)).toBe(true);
    checkGradients(net, (g) => polarityGradients(net, ex, ones, g));
  });

  it('trains to the same weights from the same seed', () => {
    const examples: NeuralExample[] = [0, 1, 2, 3].map((label) => ({
      x: fill(4 * D),
      length: 4,
      category: label % 2,
      label,
      weight: 1,
    }));
    const options = {
      hidden: H,
      epochs: 3,
      learningRate: 0.01,
      batch: 2,
      dropout: 0.3,
      l2: 1e-4,
      seed: 5,
    };
    const a = trainNeural(examples, D, 4, 2, options);
    const b = trainNeural(examples, D, 4, 2, options);
    expect(Array.from(a.conv)).toEqual(Array.from(b.conv));
    expect(Array.from(a.out)).not.toEqual(
      Array.from(trainNeural(examples, D, 4, 2, { ...options, seed: 6 }).out),
    );
  });
});

describe('detection network', () => {
  it('back-propagates the exact gradient of its loss', () => {
    const C = 3;
    const net: DetectionParams = {
      hidden: H,
      input: D,
      categories: C,
      conv: fill(H * 3 * D),
      convBias: fill(H),
      query: fill(C * H),
      out: fill(C * 2 * H),
      outBias: fill(C),
    };
    const ex: DetectionExample = { x, length: 5, labels: Uint8Array.of(1, 0, 1), weight: 1.3 };
    checkGradients(net, (grads) => detectionGradients(net, ex, ones, grads));
  });
});
