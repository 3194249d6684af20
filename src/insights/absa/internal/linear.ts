import type { FeatureBag } from './features.js';

/** Scores of a linear model: `bias + sum(value * weights[feature])`, one score per output. */
export function linearScores(
  bias: readonly number[],
  weights: ReadonlyMap<string, readonly number[]>,
  bag: FeatureBag,
): number[] {
  const scores = bias.slice();
  for (const [name, value] of bag) {
    const w = weights.get(name);
    if (!w) continue;
    for (let k = 0; k < scores.length; k++) scores[k]! += w[k]! * value;
  }
  return scores;
}

/** The logistic function. */
export function sigmoid(z: number): number {
  return 1 / (1 + Math.exp(-z));
}

/** Normalised exponentials of scores (probabilities that sum to 1). */
export function softmax(scores: readonly number[]): number[] {
  const max = Math.max(...scores);
  const e = scores.map((s) => Math.exp(s - max));
  const sum = e.reduce((a, b) => a + b, 0);
  return e.map((x) => x / sum);
}
