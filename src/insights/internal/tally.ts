import type { Polarity } from '../analyzer.js';
import type { Evidence, EvidenceByPolarity, Sentiment } from '../schema.js';

/** One review's opinion about one subject (an aspect, a person, a topic...). */
export type ReviewPolarity = 'positive' | 'negative' | 'neutral' | 'mixed';

/** Combines the sentence polarities a review expresses about one subject into one. */
export function combine(polarities: readonly Polarity[]): ReviewPolarity {
  let pos = false;
  let neg = false;
  for (const p of polarities) {
    if (p === 'positive') pos = true;
    else if (p === 'negative') neg = true;
    else if (p === 'conflict') pos = neg = true;
  }
  return pos && neg ? 'mixed' : pos ? 'positive' : neg ? 'negative' : 'neutral';
}

/** The polarity a star rating implies, for subjects named without an opinion sentence. */
export function ratingPolarity(rating: number): ReviewPolarity {
  return rating >= 4 ? 'positive' : rating <= 2 ? 'negative' : 'neutral';
}

/** A sentence that could be quoted as evidence. */
export interface Candidate {
  reviewId: string;
  /** Position of the review in published order (0 = newest). */
  order: number;
  quote: string;
  polarity: Polarity;
  confidence: number;
}

/** Counts review-level polarities and picks evidence for one subject. */
export class Tally {
  positive = 0;
  negative = 0;
  neutral = 0;
  mixed = 0;
  private readonly candidates: Candidate[] = [];

  add(polarity: ReviewPolarity): void {
    this[polarity]++;
  }

  offer(candidate: Candidate): void {
    this.candidates.push(candidate);
  }

  get mentions(): number {
    return this.positive + this.negative + this.neutral + this.mixed;
  }

  sentiment(): Sentiment {
    const n = this.mentions;
    return {
      positive: this.positive,
      negative: this.negative,
      neutral: this.neutral,
      mixed: this.mixed,
      score: n === 0 ? null : Math.round(((this.positive - this.negative) / n) * 1000) / 1000,
    };
  }

  /** Up to `perPolarity` quotes per polarity, one per review: confident, readable and recent first. */
  evidence(perPolarity = 3): EvidenceByPolarity {
    const pick = (polarity: 'positive' | 'negative' | 'neutral'): Evidence[] => {
      const chosen: Evidence[] = [];
      const seen = new Set<string>();
      const ranked = this.candidates
        .filter((c) => c.polarity === polarity)
        .map((c) => ({ c, rank: c.confidence - lengthPenalty(c.quote.length) - c.order * 1e-7 }))
        .sort((a, b) => b.rank - a.rank || a.c.order - b.c.order);
      for (const { c } of ranked) {
        if (seen.has(c.reviewId)) continue;
        seen.add(c.reviewId);
        chosen.push({ reviewId: c.reviewId, quote: c.quote });
        if (chosen.length === perPolarity) break;
      }
      return chosen;
    };
    return { positive: pick('positive'), negative: pick('negative'), neutral: pick('neutral') };
  }
}

function lengthPenalty(length: number): number {
  if (length < 25) return 0.3;
  if (length > 240) return 0.4;
  return 0;
}
