import { embeddingTexts, prepareSentence } from './internal/prepare.js';
import { embedder } from './internal/sentence-encoder.js';
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
 * A model with a sentence encoder needs the text prepared first by {@link ensureEmbeddings}.
 */
export function predict(
  model: AbsaModel,
  text: string,
  categories?: readonly string[],
): AspectPolarity[] {
  const p = prepareSentence(text, model.clusters, 0, 'en', model.vectors, embedder(model.encoder));
  const indices = categories
    ? categories.map((c) => categoryIndex(model, c))
    : pickCategories(model, detectionProbabilities(model, p));
  const probabilities = polarityProbabilities(model, p, indices);
  return indices.map((k, i) => ({
    category: model.categories[k]!.id,
    polarity: POLARITIES[argmax(probabilities[i]!)]!,
  }));
}

/**
 * Encodes the texts a model with a sentence encoder will `predict` (a no-op for other models).
 * Encoding is asynchronous and batched; prediction then stays synchronous.
 */
export async function ensureEmbeddings(model: AbsaModel, texts: Iterable<string>): Promise<void> {
  if (!model.encoder) return;
  const all: string[] = [];
  for (const text of texts) all.push(...embeddingTexts(text));
  await model.encoder.ensure(all);
}
