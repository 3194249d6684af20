import type { AbsaModel } from '../model.js';
import {
  anchorDistances,
  detectionFeatures,
  polarityFeatures,
  type CategoryContext,
} from './features.js';
import { linearScores, sigmoid, softmax } from './linear.js';
import { detectionForward } from './detection-network.js';
import { convolve, locationBuckets, neuralLogProbabilities, tokenInputs } from './neural.js';
import { assignClauses, clauseText, prepareSentence, type PreparedSentence } from './prepare.js';

/**
 * The networks' token inputs of a sentence, computed once and shared by detection and by the
 * polarity of each of its categories (keyed by the prepared sentence and the model's lexicon).
 */
const inputCache = new WeakMap<
  PreparedSentence,
  { lexicon: ReadonlyMap<string, number>; inputs: { x: Float64Array; length: number } }
>();

function networkInputs(model: AbsaModel, p: PreparedSentence): { x: Float64Array; length: number } {
  const cached = inputCache.get(p);
  if (cached?.lexicon === model.lexicon) return cached.inputs;
  const inputs = tokenInputs(p, model.lexicon);
  inputCache.set(p, { lexicon: model.lexicon, inputs });
  return inputs;
}

/**
 * Probability that the sentence talks about each category of the model, in taxonomy order; with
 * `clauseDetection`, its clauses' log-odds mixed in (see `FeatureConfig`).
 */
export function detectionProbabilities(model: AbsaModel, p: PreparedSentence): number[] {
  const scores = detectionLogOdds(model, p);
  const mix = model.features.clauseDetection ?? 0;
  if (mix <= 0) return scores.map(sigmoid);
  const split = model.features.runOnClauses
    ? assignClauses(p.words, true)
    : { clause: p.clause, count: p.clauseCount };
  if (split.count > 1) {
    const whole = scores.slice();
    for (let c = 0; c < split.count; c++) {
      const text = clauseText(p, c, split.clause);
      if (text === p.text) continue;
      const clause = prepareSentence(text, model.clusters, 0, p.language, p.vectors);
      detectionLogOdds(model, clause).forEach((q, k) => {
        scores[k] = Math.max(scores[k]!, mix * q + (1 - mix) * whole[k]!);
      });
    }
  }
  return scores.map(sigmoid);
}

function detectionLogOdds(model: AbsaModel, p: PreparedSentence): number[] {
  const scores = linearScores(
    model.detectBias,
    model.detectWeights,
    detectionFeatures(p, model.features),
  );
  if (model.neuralDetection.length > 0 && p.vectors) {
    // Ensemble: the linear detector's log-odds plus the networks', weighted.
    const { x, length } = networkInputs(model, p);
    for (const net of model.neuralDetection) {
      const { logits } = detectionForward(net.params, x, length);
      for (let c = 0; c < scores.length; c++) scores[c]! += net.mix * logits[c]!;
    }
  }
  return scores;
}

/** The category context of polarity features: anchors come from the (word) detection weights. */
export function categoryContext(model: AbsaModel, index: number): CategoryContext {
  const id = model.categories[index]!.id;
  return { id, anchorWeight: (word) => model.anchorWeights.get(`w:${word}`)?.[index] ?? 0 };
}

/**
 * Probabilities of positive, negative, neutral and conflict for each of the given categories
 * (indices) of a sentence. Each network convolves the sentence once for all of them.
 */
export function polarityProbabilities(
  model: AbsaModel,
  p: PreparedSentence,
  indices: readonly number[],
): number[][] {
  const scores = indices.map((index) =>
    linearScores(
      model.polarityBias,
      model.polarityWeights,
      polarityFeatures(p, categoryContext(model, index), model.lexicon, model.features),
    ),
  );
  if (model.neuralPolarity.length > 0 && p.vectors && indices.length > 0) {
    // Ensemble: the linear model's log-probabilities plus the networks', weighted.
    const { x, length } = networkInputs(model, p);
    const located = model.neuralPolarity.some(({ params }) => params.location);
    const buckets = indices.map((index) => {
      if (!located) return undefined;
      const context = categoryContext(model, index);
      const distances = anchorDistances(p, context, model.features.anchorThreshold);
      return distances ? locationBuckets(distances) : undefined;
    });
    for (const { params, mix } of model.neuralPolarity) {
      const h = convolve(params.conv, params.convBias, params.hidden, params.input, x, length);
      indices.forEach((index, i) => {
        const log = neuralLogProbabilities(params, h, length, index, buckets[i]);
        const s = scores[i]!;
        for (let k = 0; k < s.length; k++) s[k]! += mix * log[k]!;
      });
    }
  }
  return scores.map(softmax);
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
