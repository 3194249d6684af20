import type { AbsaModel } from '../../../src/insights/absa/model.js';
import { detectionProbabilities, prepareSentence } from '../../../src/insights/absa/model-kit.js';
import type { LabelledSentence } from './datasets.js';

/** One scored sentence of a held-out fold: its gold category indices and detection probabilities. */
export interface ScoredSentence {
  gold: readonly number[];
  probabilities: readonly number[];
}

/** How a threshold choice, shrunk by one factor, scores on held-out folds. */
export interface ShrinkTrial {
  shrink: number;
  /** Mean over folds of detection F1 and precision, thresholds chosen on the other folds. */
  nestedF1: number;
  nestedPrecision: number;
}

/** Per-category detection thresholds chosen from out-of-fold probabilities (`thresholdChoice`). */
export interface ThresholdChoice {
  base: number;
  grid: readonly number[];
  /** How many cross-validations (each its own split into folds) the choice pooled. */
  repeats: number;
  trials: ShrinkTrial[];
  /** How far the thresholds move from the base towards the free choice (0 to 1). */
  shrink: number;
  /** Chosen on all folds, shrunk, rounded to 3 decimals; by category id. */
  thresholds: Record<string, number>;
}

const GRID = [0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6, 0.65, 0.7];
const SHRINKS = [0, 0.25, 0.5, 0.75, 1];

/**
 * The held-out sentences' detection probabilities (sentences labelled for polarity only skipped),
 * for a model without a sentence encoder (the dealership model's; the encoder's embeddings would
 * have to be prepared first).
 */
export function scoreHeldOut(
  model: AbsaModel,
  test: readonly LabelledSentence[],
): ScoredSentence[] {
  const index = new Map(model.categories.map((c, k) => [c.id, k]));
  return test
    .filter((s) => !s.polarityOnly)
    .map((s) => ({
      gold: [...new Set(s.aspects.map((a) => index.get(a.category)!))],
      probabilities: detectionProbabilities(
        model,
        prepareSentence(s.text, model.clusters, 0, 'en', model.vectors, null),
      ),
    }));
}

function counts(rows: readonly ScoredSentence[], thresholds: readonly number[]) {
  let tp = 0;
  let fp = 0;
  let fn = 0;
  for (const r of rows) {
    r.probabilities.forEach((p, k) => {
      const found = p >= thresholds[k]!;
      const gold = r.gold.includes(k);
      if (found && gold) tp++;
      else if (found) fp++;
      else if (gold) fn++;
    });
  }
  return { f1: (2 * tp) / Math.max(1, 2 * tp + fp + fn), precision: tp / Math.max(1, tp + fp) };
}

/**
 * Coordinate ascent over a grid, two passes over the categories from the base threshold: each
 * category's threshold moves only when that raises micro F1 on `rows`, and among values that tie,
 * to the one nearest the base.
 */
export function chooseThresholds(
  rows: readonly ScoredSentence[],
  categories: number,
  base: number,
  grid: readonly number[] = GRID,
): number[] {
  const th = new Array<number>(categories).fill(base);
  const nearestFirst = [...grid].sort((a, b) => Math.abs(a - base) - Math.abs(b - base) || a - b);
  for (let pass = 0; pass < 2; pass++) {
    for (let k = 0; k < categories; k++) {
      let best = th[k]!;
      let bestF1 = counts(rows, th).f1;
      for (const t of nearestFirst) {
        const trial = th.slice();
        trial[k] = t;
        const f1 = counts(rows, trial).f1;
        if (f1 > bestF1 + 1e-9) [best, bestF1] = [t, f1];
      }
      th[k] = best;
    }
  }
  return th;
}

const shrunk = (th: readonly number[], base: number, s: number): number[] =>
  th.map((t) => Math.round((base + s * (t - base)) * 1000) / 1000);

/**
 * Per-category thresholds from the out-of-fold probabilities of repeated cross-validations (each
 * repeat a list of folds, every sentence held out once per repeat): chosen on all repeats pooled and
 * moved only `shrink` of the way from the base. Pooling splits that differ only in which sentences
 * share a fold averages away the luck of one split, which alone moved thresholds by a step or two
 * when a few sentences were added (docs/absa-model.md, *Detection thresholds*). Beside them, how the
 * choice holds on data it did not see: for each factor of {0, 0.25, 0.5, 0.75, 1}, thresholds chosen
 * on the other folds of the same repeat and shrunk by it, scored on each fold in turn (nested),
 * averaged over every fold of every repeat. Chosen freely (factor 1), they buy recall with
 * precision; a quarter of the way, precision holds and F1 still gains.
 */
export function thresholdChoice(
  repeats: readonly (readonly (readonly ScoredSentence[])[])[],
  categoryIds: readonly string[],
  base: number,
  shrink: number,
): ThresholdChoice {
  const mean = (xs: number[]): number =>
    Math.round((10000 * xs.reduce((a, b) => a + b, 0)) / xs.length) / 100;
  const nested = repeats.flatMap((folds) =>
    folds.map((rows, f) => ({
      rows,
      chosen: chooseThresholds(folds.filter((_, g) => g !== f).flat(), categoryIds.length, base),
    })),
  );
  const trials = SHRINKS.map((factor) => {
    const scores = nested.map(({ rows, chosen }) => counts(rows, shrunk(chosen, base, factor)));
    return {
      shrink: factor,
      nestedF1: mean(scores.map((s) => s.f1)),
      nestedPrecision: mean(scores.map((s) => s.precision)),
    };
  });
  const all = shrunk(chooseThresholds(repeats.flat(2), categoryIds.length, base), base, shrink);
  return {
    base,
    grid: GRID,
    repeats: repeats.length,
    trials,
    shrink,
    thresholds: Object.fromEntries(categoryIds.map((id, k) => [id, all[k]!])),
  };
}
