import { POLARITIES } from '../../../src/insights/absa/types.js';

/**
 * Balances each category's in-domain polarity examples (`TrainConfig.polarityBalance`): where one
 * side, positive or negative, weighs at least `minRatio` times the other, the rarer side's examples
 * weigh that ratio more, at most `cap`. The arrays are parallel, one entry per (sentence, category)
 * example; examples not `inDomain` (restaurant transfer) are neither counted nor reweighed.
 * Reweighs `weights` in place.
 */
export function balancePolarity(
  categories: readonly number[],
  inDomain: readonly boolean[],
  labels: readonly number[],
  weights: number[],
  { cap, minRatio }: { cap: number; minRatio: number },
): void {
  const pos = POLARITIES.indexOf('positive');
  const neg = POLARITIES.indexOf('negative');
  const totals = new Map<number, [number, number]>();
  labels.forEach((label, j) => {
    if (!inDomain[j] || (label !== pos && label !== neg)) return;
    const t = totals.get(categories[j]!) ?? [0, 0];
    t[label === pos ? 0 : 1] += weights[j]!;
    totals.set(categories[j]!, t);
  });
  const boost = new Map<number, { label: number; factor: number }>();
  for (const [k, [p, n]] of totals) {
    if (p === 0 || n === 0) continue;
    const ratio = Math.max(p, n) / Math.min(p, n);
    if (ratio >= minRatio) boost.set(k, { label: p < n ? pos : neg, factor: Math.min(ratio, cap) });
  }
  labels.forEach((label, j) => {
    const b = boost.get(categories[j]!);
    if (b && inDomain[j] && label === b.label) weights[j] = weights[j]! * b.factor;
  });
}
