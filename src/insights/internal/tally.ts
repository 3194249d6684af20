import type { Polarity } from '../analyzer.js';
import type { Evidence, EvidenceByPolarity, Sentiment } from '../schema.js';
import { quoteKey } from './evidence.js';

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
  /** The best candidates per polarity, ranked; bounded so a subject with many quotes stays cheap. */
  private readonly best: Record<'positive' | 'negative' | 'neutral', Ranked[]> = {
    positive: [],
    negative: [],
    neutral: [],
  };

  add(polarity: ReviewPolarity): void {
    this[polarity]++;
  }

  offer(candidate: Candidate): void {
    if (candidate.polarity === 'conflict') return;
    const list = this.best[candidate.polarity];
    const rank = candidate.confidence - lengthPenalty(candidate.quote.length);
    // Most candidates rank below every kept one: they are turned away before any other work.
    const worst = list[list.length - 1];
    if (list.length >= KEEP && worst && !before(rank, candidate.order, worst)) return;
    const key = quoteKey(candidate.quote);
    // One candidate per review, and one per wording: evidence quotes a review once and a repeated
    // sentence once, so neither may take the places that other quotes need.
    const same = list.filter((x) => x.c.reviewId === candidate.reviewId || x.key === key);
    if (same.some((x) => !before(rank, candidate.order, x))) return;
    for (const x of same) list.splice(list.indexOf(x), 1);
    let i = list.length;
    while (i > 0 && before(rank, candidate.order, list[i - 1]!)) i--;
    list.splice(i, 0, { c: candidate, rank, key });
    if (list.length > KEEP) list.pop();
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

  /**
   * Up to `perPolarity` quotes per polarity, one per review and one per wording: confident,
   * readable and recent first.
   */
  evidence(perPolarity = 3): EvidenceByPolarity {
    const pick = (polarity: 'positive' | 'negative' | 'neutral'): Evidence[] =>
      this.best[polarity]
        .slice(0, perPolarity)
        .map(({ c }) => ({ reviewId: c.reviewId, quote: c.quote }));
    return { positive: pick('positive'), negative: pick('negative'), neutral: pick('neutral') };
  }
}

interface Ranked {
  c: Candidate;
  rank: number;
  /** `quoteKey` of the quote. */
  key: string;
}

/** Candidates kept per polarity: enough to find three from distinct reviews. */
const KEEP = 12;

/** True when a candidate of this rank and order comes before `other` (higher rank, then newer). */
function before(rank: number, order: number, other: Ranked): boolean {
  return rank > other.rank || (rank === other.rank && order < other.c.order);
}

function lengthPenalty(length: number): number {
  if (length < 25) return 0.3;
  if (length > 240) return 0.4;
  return 0;
}
