import type { Polarity } from '../../src/insights/analyzer.js';
import type { PreparedReview, PreparedSentence } from '../../src/insights/internal/prepare.js';
import { reviewRecord, type ReviewSpec } from './records.js';

/** One sentence of a hand-made analysis: its text and the aspects a model would have found. */
export interface SentenceSpec {
  text: string;
  /** `[category, polarity, confidence]` (confidence defaults to 0.9). */
  aspects?: [string, Polarity, number?][];
  staff?: string[];
  services?: string[];
  themes?: number;
  flags?: number;
  minutes?: number[];
}

/**
 * A review as the insights aggregation sees it, with its analysed sentences given by hand. The
 * review text is the sentences joined by spaces, so every sentence is a verbatim part of it.
 */
export function preparedReview(
  order: number,
  spec: Omit<ReviewSpec, 'body'>,
  sentences: SentenceSpec[],
  textArea: string | null = null,
): PreparedReview {
  const review = reviewRecord({
    ...spec,
    body: sentences.length ? sentences.map((s) => s.text).join(' ') : null,
  });
  return {
    review,
    order,
    textArea,
    sentences: sentences.map((s): PreparedSentence => ({
      text: s.text,
      aspects: (s.aspects ?? []).map(([category, polarity, confidence]) => ({
        category,
        polarity,
        confidence: confidence ?? 0.9,
      })),
      themes: s.themes ?? 0,
      services: s.services ?? [],
      staff: s.staff ?? [],
      flags: s.flags ?? 0,
      minutes: s.minutes ?? [],
    })),
  };
}
