import { prepareSentence } from './internal/prepare.js';
import { detectionProbabilities, pickCategories, polarityProbabilities } from './internal/score.js';
import type { AbsaModel } from './model.js';
import { POLARITIES, type AspectPolarity } from './types.js';

function argmax(values: readonly number[]): number {
  let best = 0;
  values.forEach((v, k) => {
    if (v > values[best]!) best = k;
  });
  return best;
}

/** The position of a category id in the model's taxonomy; throws for an id the model lacks. */
export function categoryIndex(model: AbsaModel, id: string): number {
  const index = model.categories.findIndex((c) => c.id === id);
  if (index < 0) throw new Error(`unknown category for model ${model.name}: ${id}`);
  return index;
}

/**
 * Aspect categories of one sentence with their polarity, as SemEval-2014 Task 4 scores them. With
 * `categories`, predicts the polarity of exactly those (subtask 4); without, detects the categories
 * first (subtask 3). The text is treated as a single sentence; use `analyzeReview` for reviews.
 */
export function predict(
  model: AbsaModel,
  text: string,
  categories?: readonly string[],
): AspectPolarity[] {
  const p = prepareSentence(text, model.clusters, 0, 'en', model.vectors);
  const indices = categories
    ? categories.map((c) => categoryIndex(model, c))
    : pickCategories(model, detectionProbabilities(model, p));
  const probabilities = polarityProbabilities(model, p, indices);
  return indices.map((k, i) => ({
    category: model.categories[k]!.id,
    polarity: POLARITIES[argmax(probabilities[i]!)]!,
  }));
}
