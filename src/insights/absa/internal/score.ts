import type { AbsaModel } from '../model.js';
import { detectionFeatures, polarityFeatures, type CategoryContext } from './features.js';
import { linearScores, sigmoid, softmax } from './linear.js';
import { detectionForward, neuralLogProbabilities, tokenInputs } from './neural.js';
import type { PreparedSentence } from './prepare.js';

/** Probability that the sentence talks about each category of the model, in taxonomy order. */
export function detectionProbabilities(model: AbsaModel, p: PreparedSentence): number[] {
  const scores = linearScores(
    model.detectBias,
    model.detectWeights,
    detectionFeatures(p, model.features),
  );
  if (model.neuralDetection.length > 0 && p.vectors) {
    // Ensemble: the linear detector's log-odds plus the networks', weighted.
    const { x, length } = tokenInputs(p, model.lexicon);
    for (const net of model.neuralDetection) {
      const { logits } = detectionForward(net.params, x, length);
      for (let c = 0; c < scores.length; c++) scores[c]! += net.mix * logits[c]!;
    }
  }
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
  const scores = linearScores(model.polarityBias, model.polarityWeights, bag);
  if (model.neuralPolarity.length > 0 && p.vectors) {
    // Ensemble: the linear model's log-probabilities plus the networks', weighted.
    const { x, length } = tokenInputs(p, model.lexicon);
    for (const net of model.neuralPolarity) {
      const log = neuralLogProbabilities(net.params, x, length, index);
      for (let k = 0; k < scores.length; k++) scores[k]! += net.mix * log[k]!;
    }
  }
  return softmax(scores);
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
