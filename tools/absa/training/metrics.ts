import { predict } from '../../../src/insights/absa/predict.js';
import type { AbsaModel } from '../../../src/insights/absa/model.js';
import type { LabelledSentence } from './datasets.js';

/** Counts behind the SemEval-2014 subtask 3 (detection) and subtask 4 (polarity) scores. */
export interface EvaluationCounts {
  truePositives: number;
  falsePositives: number;
  falseNegatives: number;
  polarityCorrect: number;
  polarityTotal: number;
}

/** Scores as percentages. */
export interface Scores {
  detectionPrecision: number;
  detectionRecall: number;
  detectionF1: number;
  polarityAccuracy: number;
}

/**
 * Evaluates a model on labelled sentences the way SemEval-2014 Task 4 does: detection is scored by
 * micro precision/recall/F1 over (sentence, category) pairs, polarity by accuracy over the gold
 * pairs when the gold categories are given.
 */
export function evaluate(model: AbsaModel, data: readonly LabelledSentence[]): EvaluationCounts {
  const c: EvaluationCounts = {
    truePositives: 0,
    falsePositives: 0,
    falseNegatives: 0,
    polarityCorrect: 0,
    polarityTotal: 0,
  };
  for (const s of data) {
    const gold = new Set(s.aspects.map((a) => a.category));
    const found = new Set(predict(model, s.text).map((a) => a.category));
    for (const g of gold) {
      if (found.has(g)) c.truePositives++;
      else c.falseNegatives++;
    }
    for (const f of found) if (!gold.has(f)) c.falsePositives++;
    if (s.aspects.length === 0) continue;
    const judged = predict(
      model,
      s.text,
      s.aspects.map((a) => a.category),
    );
    judged.forEach((j, i) => {
      c.polarityTotal++;
      if (j.polarity === s.aspects[i]!.polarity) c.polarityCorrect++;
    });
  }
  return c;
}

/** Percent scores from counts (rounded to two decimals). */
export function toScores(c: EvaluationCounts): Scores {
  const pct = (x: number): number => Math.round(x * 10000) / 100;
  const p = c.truePositives / Math.max(1, c.truePositives + c.falsePositives);
  const r = c.truePositives / Math.max(1, c.truePositives + c.falseNegatives);
  return {
    detectionPrecision: pct(p),
    detectionRecall: pct(r),
    detectionF1: pct(p + r === 0 ? 0 : (2 * p * r) / (p + r)),
    polarityAccuracy: pct(c.polarityCorrect / Math.max(1, c.polarityTotal)),
  };
}
