import type { FeatureBag } from '../../../src/insights/absa/model-kit.js';
import type { SparseRow } from './softmax.js';

/** Feature names kept for training, in sorted order, with their row index. */
export interface Vocabulary {
  names: string[];
  index: Map<string, number>;
}

/** Keeps the features that occur in at least `minCount` bags, sorted by name (deterministic). */
export function buildVocabulary(bags: readonly FeatureBag[], minCount: number): Vocabulary {
  const counts = new Map<string, number>();
  for (const bag of bags)
    for (const name of bag.keys()) counts.set(name, (counts.get(name) ?? 0) + 1);
  const names = [...counts].filter(([, c]) => c >= minCount).map(([n]) => n);
  names.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return { names, index: new Map(names.map((n, i) => [n, i])) };
}

/** A bag as a sparse row over a vocabulary; unknown features are dropped. */
export function toSparseRow(bag: FeatureBag, vocabulary: Vocabulary): SparseRow {
  const pairs: [number, number][] = [];
  for (const [name, value] of bag) {
    const i = vocabulary.index.get(name);
    if (i !== undefined) pairs.push([i, value]);
  }
  pairs.sort((a, b) => a[0] - b[0]);
  return {
    index: Int32Array.from(pairs, (p) => p[0]),
    value: Float64Array.from(pairs, (p) => p[1]),
  };
}

/** Rounds to a fixed number of decimals, mapping -0 to 0 (stable JSON). */
export function roundWeight(x: number, decimals = 4): number {
  const f = 10 ** decimals;
  const r = Math.round(x * f) / f;
  return r === 0 ? 0 : r;
}
