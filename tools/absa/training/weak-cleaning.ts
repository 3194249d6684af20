import {
  detectionProbabilities,
  embedder,
  prepareSentence,
} from '../../../src/insights/absa/model-kit.js';
import { modelFromFile } from '../../../src/insights/absa/model.js';
import type { LabelledSentence } from './datasets.js';
import { trainModel, type TrainConfig } from './train-model.js';

/** When a first-pass detector's judgement overrules a weak label (see {@link cleanWeakLabels}). */
export interface WeakCleaning {
  /** A category other than the label's, given at least this, is no longer a negative. */
  negative: number;
  /**
   * The label's own category, given less than this while another one gets at least `negative`,
   * is no longer a positive: the sentence speaks of something else than its question.
   */
  positive: number;
}

/**
 * Takes back what a weak label says without knowing it (issue 32). A weak survey sentence is
 * labelled with its question's category only, so it is also a negative example of every other
 * category, which is wrong whenever the comment speaks of two things ("book the appointment
 * earlier and finish the work on time" answers the scheduling question and is about the wait
 * too); and a sentence of a comment that answers its question with something else ("the waiting
 * time is too long", under the appointment question) is a wrong positive. The wrong negatives
 * taught the detectors to stay silent on survey comments; the wrong positives, to see scheduling
 * in every wait.
 *
 * Two-fold cross-fitting: a detector trained on `base` and the other half of the weak sentences
 * scores each weak sentence, and the categories it contradicts (`cleaning`) become unlabelled for
 * that sentence (neither positive nor negative). Scoring a half with a model that never saw it
 * keeps the model from repeating its own training labels. Only detection matters here, so `base`'s
 * polarity-only sentences are left out. Deterministic: training is, and the halves are fixed (even
 * and odd positions).
 */
export function cleanWeakLabels(
  base: readonly LabelledSentence[],
  weak: readonly LabelledSentence[],
  config: TrainConfig,
  cleaning: WeakCleaning,
): LabelledSentence[] {
  const detection = base.filter((s) => !s.polarityOnly);
  const half = (h: number) => weak.filter((_, i) => i % 2 === h);
  const embed = embedder(config.encoder);
  const out = weak.slice();
  for (const h of [0, 1]) {
    const file = trainModel([...detection, ...half(1 - h)], config);
    const model = modelFromFile(file, config.clusters, config.vectors);
    weak.forEach((s, i) => {
      if (i % 2 !== h) return;
      const prepared = prepareSentence(s.text, config.clusters, 0, 'en', config.vectors, embed);
      const p = detectionProbabilities(model, prepared);
      const own = new Set(s.aspects.map((a) => a.category));
      const unlabelled = new Set(s.unlabelled);
      let otherMax = 0;
      model.categories.forEach((c, k) => {
        if (own.has(c.id) || unlabelled.has(c.id)) return;
        otherMax = Math.max(otherMax, p[k]!);
        if (p[k]! >= cleaning.negative) unlabelled.add(c.id);
      });
      const first = model.categories.findIndex((c) => c.id === s.aspects[0]?.category);
      if (otherMax >= cleaning.negative && first >= 0 && p[first]! < cleaning.positive) {
        unlabelled.add(s.aspects[0]!.category);
      }
      out[i] = { ...s, unlabelled: [...unlabelled] };
    });
  }
  return out;
}
