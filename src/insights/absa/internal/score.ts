import type { AbsaModel } from '../model.js';
import { detectionFeatures, polarityFeatures, type CategoryContext } from './features.js';
import { linearScores, sigmoid, softmax } from './linear.js';
import type { PreparedSentence } from './prepare.js';

/** Probability that the sentence talks about each category of the model, in taxonomy order. */
export function detectionProbabilities(model: AbsaModel, p: PreparedSentence): number[] {
  const scores = linearScores(
    model.detectBias,
    model.detectWeights,
    detectionFeatures(p, model.features),
  );
  return scores.map(sigmoid);
}

/** The category context of polarity features: anchors come from the detection weights. */
export function categoryContext(model: AbsaModel, index: number): CategoryContext {
  const id = model.categories[index]!.id;
  return { id, anchorWeight: (word) => model.detectWeights.get(`w:${word}`)?.[index] ?? 0 };
}

/** Probabilities of positive, negative, neutral and conflict for one category of a sentence. */
export function polarityProbabilities(
  model: AbsaModel,
  p: PreparedSentence,
  index: number,
): number[] {
  const bag = polarityFeatures(p, categoryContext(model, index), model.lexicon, model.features);
  return softmax(linearScores(model.polarityBias, model.polarityWeights, bag));
}

/** Indices of the detected categories: those over their threshold, or the best one if required. */
export function pickCategories(model: AbsaModel, probabilities: readonly number[]): number[] {
  const picked = probabilities.flatMap((p, k) => (p >= model.detectThreshold[k]! ? [k] : []));
  if (picked.length > 0 || !model.atLeastOne) return picked;
  let best = 0;
  probabilities.forEach((p, k) => {
    if (p > probabilities[best]!) best = k;
  });
  return [best];
}
