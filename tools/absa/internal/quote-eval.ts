import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { analyzeReview, type AbsaModel } from '../../../src/insights/absa/index.js';
import {
  ASPECT_EVIDENCE_MIN_CONFIDENCE,
  aspectEvidenceAllowed,
} from '../../../src/insights/index.js';
import type { LabelledSentence } from '../training/index.js';
import { sharedDataDir } from '../../paths.js';

/** How often the aspect evidence the insights would show has a polarity the gold label disputes. */
export interface QuotePolarity {
  /** The confidence floor of aspect evidence this was measured with. */
  minConfidence: number;
  /** Sentence-aspect judgements, praise or complaint, that the evidence rules would quote. */
  shown: number;
  /** Of those, the ones whose category the hand label has (the rest are detection errors). */
  onAspect: number;
  /** Of `onAspect`, the ones whose hand-labelled polarity differs (conflict and neutral included). */
  wrongPolarity: number;
  /** `wrongPolarity / onAspect`, percent. */
  wrongShare: number;
  /** `(shown - onAspect) / shown`, percent: quotes about another aspect than they are shown for. */
  offAspectShare: number;
}

/** Star ratings of the DealerRater reviews by id (the survey comments have none). */
function dealerRaterRatings(): Map<string, number> {
  const ratings = new Map<string, number>();
  const path = join(sharedDataDir(), 'dealerrater-mckaig', 'reviews_dev.jsonl');
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    if (!line.startsWith('{')) continue;
    const r = JSON.parse(line) as { id: string; overall: number };
    ratings.set(r.id, r.overall);
  }
  return ratings;
}

const pct = (x: number, n: number): number => Math.round((x / Math.max(1, n)) * 10000) / 100;

/**
 * Measures, on hand-labelled sentences (the test third), issue 32's "quotes that agree": every
 * praise or complaint the model finds is a quote the aspect evidence may show when
 * `aspectEvidenceAllowed` lets it through (the insights' rule: confident enough, and not
 * contradicting the review's stars unless very confident; survey comments have no stars, so only
 * the confidence floor applies to them). Counted wrong when the hand label gives that aspect
 * another polarity.
 */
export function quotePolarity(
  model: AbsaModel,
  sentences: readonly LabelledSentence[],
  minConfidence = ASPECT_EVIDENCE_MIN_CONFIDENCE,
): QuotePolarity {
  const ratings = dealerRaterRatings();
  let shown = 0;
  let onAspect = 0;
  let wrong = 0;
  for (const s of sentences) {
    const review = /^dealerrater-mckaig\/[^#]+#(\d+)@/.exec(s.id)?.[1];
    const rating = review === undefined ? null : (ratings.get(review) ?? null);
    for (const sentence of analyzeReview(model, s.text).sentences) {
      for (const a of sentence.aspects) {
        if (a.polarity !== 'positive' && a.polarity !== 'negative') continue;
        if (!aspectEvidenceAllowed(a.polarity, rating, a.confidence, minConfidence)) continue;
        shown++;
        const gold = s.aspects.find((g) => g.category === a.category);
        if (!gold) continue;
        onAspect++;
        if (gold.polarity !== a.polarity) wrong++;
      }
    }
  }
  return {
    minConfidence,
    shown,
    onAspect,
    wrongPolarity: wrong,
    wrongShare: pct(wrong, onAspect),
    offAspectShare: pct(shown - onAspect, shown),
  };
}
