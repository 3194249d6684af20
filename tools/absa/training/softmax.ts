import { minimizeLbfgs } from './lbfgs.js';

/** A sparse feature vector: parallel arrays of feature indices and values. */
export interface SparseRow {
  index: Int32Array;
  value: Float64Array;
}

/** Training options of {@link trainSoftmax}. */
export interface SoftmaxOptions {
  classes: number;
  /** L2 penalty on the weights (not on the biases), relative to the total sample weight. */
  l2: number;
  maxIterations: number;
}

/** Trained weights: `weights[feature * classes + k]` and one bias per class. */
export interface SoftmaxWeights {
  classes: number;
  features: number;
  weights: Float64Array;
  bias: Float64Array;
}

function makeObjective(
  rows: readonly SparseRow[],
  labels: readonly number[],
  sampleWeights: readonly number[],
  features: number,
  options: SoftmaxOptions,
) {
  const k = options.classes;
  const total = sampleWeights.reduce((a, b) => a + b, 0);
  const lambda = options.l2 * total;
  const scores = new Float64Array(k);
  return (x: Float64Array, grad: Float64Array): number => {
    grad.fill(0);
    let loss = 0;
    const biasAt = features * k;
    for (let r = 0; r < rows.length; r++) {
      const row = rows[r]!;
      for (let c = 0; c < k; c++) scores[c] = x[biasAt + c]!;
      for (let j = 0; j < row.index.length; j++) {
        const base = row.index[j]! * k;
        const v = row.value[j]!;
        for (let c = 0; c < k; c++) scores[c]! += x[base + c]! * v;
      }
      let max = -Infinity;
      for (let c = 0; c < k; c++) max = Math.max(max, scores[c]!);
      let sum = 0;
      for (let c = 0; c < k; c++) sum += Math.exp(scores[c]! - max);
      const sw = sampleWeights[r]!;
      const y = labels[r]!;
      loss += sw * (max + Math.log(sum) - scores[y]!);
      for (let c = 0; c < k; c++) {
        const g = sw * (Math.exp(scores[c]! - max) / sum - (c === y ? 1 : 0));
        grad[biasAt + c]! += g;
        for (let j = 0; j < row.index.length; j++)
          grad[row.index[j]! * k + c]! += g * row.value[j]!;
      }
    }
    for (let i = 0; i < biasAt; i++) {
      loss += 0.5 * lambda * x[i]! * x[i]!;
      grad[i]! += lambda * x[i]!;
    }
    return loss;
  };
}

/**
 * Trains an L2-regularised multinomial logistic regression (softmax) on sparse rows with L-BFGS.
 * Deterministic: no sampling, a zero start point and a fixed iteration budget.
 */
export function trainSoftmax(
  rows: readonly SparseRow[],
  labels: readonly number[],
  features: number,
  options: SoftmaxOptions,
  sampleWeights: readonly number[] = rows.map(() => 1),
): SoftmaxWeights {
  const k = options.classes;
  const objective = makeObjective(rows, labels, sampleWeights, features, options);
  const x = minimizeLbfgs(objective, new Float64Array(features * k + k), {
    maxIterations: options.maxIterations,
    memory: 10,
    tolerance: 1e-7,
  });
  return {
    classes: k,
    features,
    weights: x.subarray(0, features * k),
    bias: x.subarray(features * k),
  };
}
