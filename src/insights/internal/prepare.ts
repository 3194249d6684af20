import type { Review } from '../../domain/review.js';
import type { Analyzer, Polarity } from '../analyzer.js';

export interface PreparedSentence {
  /** Verbatim text of the sentence (a substring of the review text). */
  text: string;
  lower: string;
  aspects: { category: string; polarity: Polarity; confidence: number }[];
}

export interface PreparedReview {
  review: Review;
  /** Position in published order (0 = newest). */
  order: number;
  sentences: PreparedSentence[];
}

/** Analyses every review text once (through the analyzer's cache) and keeps the sentences. */
export function prepareReviews(reviews: readonly Review[], analyze: Analyzer): PreparedReview[] {
  return reviews.map((review, order) => {
    const body = review.reviewBody;
    if (!body) return { review, order, sentences: [] };
    const sentences = analyze(body).sentences.map((s) => {
      const text = body.slice(s.start, s.end);
      return { text, lower: text.toLowerCase(), aspects: s.aspects };
    });
    return { review, order, sentences };
  });
}

/** The majority polarity of a sentence's aspects, or `null` when it has none. */
export function sentencePolarity(s: PreparedSentence): Polarity | null {
  if (s.aspects.length === 0) return null;
  let best = s.aspects[0]!;
  for (const a of s.aspects) if (a.confidence > best.confidence) best = a;
  const polarities = new Set(s.aspects.map((a) => a.polarity));
  if (polarities.has('positive') && polarities.has('negative')) return 'conflict';
  return best.polarity;
}
