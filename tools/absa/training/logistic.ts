import { minimizeLbfgs } from './lbfgs.js';
import type { SparseRow } from './softmax.js';

/** Trained binary logistic regression: one weight per feature and a bias. */
export interface LogisticWeights {
  weights: Float64Array;
  bias: number;
}

/**
 * Trains an L2-regularised binary logistic regression on sparse rows with L-BFGS (the penalty is
 * `l2` times the total sample weight, biases unpenalised). Deterministic like `trainSoftmax`.
 */
export function trainLogistic(
  rows: readonly SparseRow[],
  labels: readonly number[],
  features: number,
  options: { l2: number; maxIterations: number },
  sampleWeights: readonly number[] = rows.map(() => 1),
): LogisticWeights {
  const lambda = options.l2 * sampleWeights.reduce((a, b) => a + b, 0);
  const objective = (x: Float64Array, grad: Float64Array): number => {
    grad.fill(0);
    let loss = 0;
    for (let r = 0; r < rows.length; r++) {
      const row = rows[r]!;
      let z = x[features]!;
      for (let j = 0; j < row.index.length; j++) z += x[row.index[j]!]! * row.value[j]!;
      const sign = labels[r] === 1 ? 1 : -1;
      const m = sign * z;
      // log(1 + exp(-m)), computed stably.
      loss += sampleWeights[r]! * (m > 0 ? Math.log1p(Math.exp(-m)) : -m + Math.log1p(Math.exp(m)));
      const g = (-sign * sampleWeights[r]!) / (1 + Math.exp(m));
      grad[features]! += g;
      for (let j = 0; j < row.index.length; j++) grad[row.index[j]!]! += g * row.value[j]!;
    }
    for (let i = 0; i < features; i++) {
      loss += 0.5 * lambda * x[i]! * x[i]!;
      grad[i]! += lambda * x[i]!;
    }
    return loss;
  };
  const x = minimizeLbfgs(objective, new Float64Array(features + 1), {
    maxIterations: options.maxIterations,
    memory: 10,
    tolerance: 1e-7,
  });
  return { weights: x.subarray(0, features), bias: x[features]! };
}
