import type { Gradients, NeuralOptions } from './neural.js';

/** Adam state of one parameter array. */
class Adam {
  readonly m: Float64Array;
  readonly v: Float64Array;
  constructor(
    readonly param: Float64Array,
    readonly grad: Float64Array,
    readonly decay: number,
  ) {
    this.m = new Float64Array(param.length);
    this.v = new Float64Array(param.length);
  }

  step(rate: number, t: number, scale: number): void {
    const b1 = 0.9;
    const b2 = 0.999;
    const c1 = 1 - b1 ** t;
    const c2 = 1 - b2 ** t;
    const { param, grad, m, v, decay } = this;
    for (let i = 0; i < param.length; i++) {
      const g = grad[i]! * scale + decay * param[i]!;
      m[i] = b1 * m[i]! + (1 - b1) * g;
      v[i] = b2 * v[i]! + (1 - b2) * g * g;
      param[i]! -= (rate * (m[i]! / c1)) / (Math.sqrt(v[i]! / c2) + 1e-8);
      grad[i] = 0;
    }
  }
}

/** Zero gradient arrays shaped like the network's parameter arrays. */
export function zeroGradients(net: Gradients): Gradients {
  return {
    conv: new Float64Array(net.conv.length),
    convBias: new Float64Array(net.convBias.length),
    query: new Float64Array(net.query.length),
    out: new Float64Array(net.out.length),
    outBias: new Float64Array(net.outBias.length),
    ...(net.location ? { location: new Float64Array(net.location.length) } : {}),
  };
}

/**
 * Mini-batch Adam over `examples`: a seeded shuffle each epoch and a seeded dropout mask on the
 * pooled features of each example, `gradients` adding one example's gradients.
 */
export function optimise<N extends { hidden: number } & Gradients, E extends { weight: number }>(
  net: N,
  examples: readonly E[],
  options: NeuralOptions,
  random: () => number,
  gradients: (net: N, ex: E, mask: Float64Array, grads: Gradients) => number,
): void {
  const H = net.hidden;
  const grads = zeroGradients(net);
  const optimizers = [
    new Adam(net.conv, grads.conv, options.l2),
    new Adam(net.convBias, grads.convBias, 0),
    new Adam(net.query, grads.query, options.l2),
    new Adam(net.out, grads.out, options.l2),
    new Adam(net.outBias, grads.outBias, 0),
    ...(net.location && grads.location ? [new Adam(net.location, grads.location, 0)] : []),
  ];
  const order = examples.map((_, i) => i);
  const keep = 1 - options.dropout;
  const mask = new Float64Array(2 * H);
  let step = 0;
  for (let epoch = 0; epoch < options.epochs; epoch++) {
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [order[i], order[j]] = [order[j]!, order[i]!];
    }
    for (let start = 0; start < order.length; start += options.batch) {
      const end = Math.min(order.length, start + options.batch);
      let batchWeight = 0;
      for (let b = start; b < end; b++) {
        const ex = examples[order[b]!]!;
        batchWeight += ex.weight;
        for (let i = 0; i < 2 * H; i++) mask[i] = random() < keep ? 1 / keep : 0;
        gradients(net, ex, mask, grads);
      }
      step++;
      for (const o of optimizers)
        o.step(options.learningRate, step, 1 / Math.max(1e-9, batchWeight));
    }
  }
}
