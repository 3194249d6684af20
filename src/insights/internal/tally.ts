import type { Polarity } from '../analyzer.js';
import type { Evidence, EvidenceByPolarity, Sentiment } from '../schema.js';
import { quoteKey } from './evidence.js';
import type { PreparedReview, PreparedSentence } from './prepare.js';

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
  /** The review's star rating: a quote should not contradict the stars its author gave. */
  rating: number;
}

/** The candidate that quotes sentence `s` of review `p` with the given polarity and confidence. */
export function sentenceCandidate(
  p: PreparedReview,
  s: PreparedSentence,
  polarity: Polarity,
  confidence: number,
): Candidate {
  return {
    reviewId: p.review.id,
    order: p.order,
    quote: s.text,
    polarity,
    confidence,
    rating: p.review.reviewRating.ratingValue,
  };
}

/**
 * A model's judgement that contradicts the review's stars (praise from a 1- or 2-star review, a
 * complaint from a 4- or 5-star one) is quoted only at this confidence or above, and after every
 * quote that agrees: below it, most such judgements are the model's mistakes ("They could have
 * charged me for a new part but didn't" read as a complaint), and a shopper reads the first
 * quote of a list as the typical one.
 */
export const CONTRADICTION_MIN_CONFIDENCE = 0.9;

/**
 * How far a quote's polarity agrees with its review's stars: 0 when they agree (or the quote is
 * neutral), 0.25 off the rank for a 3-star review (mixed by nature), 2 off (after every agreeing
 * quote) for a contradiction, `null` when a contradiction is not confident enough to quote.
 */
export function ratingDisagreement(
  polarity: Polarity,
  rating: number,
  confidence: number,
): number | null {
  if (polarity !== 'positive' && polarity !== 'negative') return 0;
  if (rating === 3) return 0.25;
  if ((polarity === 'positive') === rating >= 4) return 0;
  return confidence >= CONTRADICTION_MIN_CONFIDENCE ? 2 : null;
}

/**
 * Aspect evidence (the quotes of `aspects` and of the FAQ answers, each the model's judgement of
 * that aspect) is quoted as praise or complaint only at this confidence (detection times polarity
 * probability) or above. Measured on the hand-labelled dealership test third (`npm run -s absa --
 * survey-eval`, `quotePolarity`): see docs/benchmarks.md. Counts are not affected: a judgement
 * below the floor still counts, it is only not quoted.
 */
export const ASPECT_EVIDENCE_MIN_CONFIDENCE = 0.6;

/**
 * Whether aspect evidence may quote a judgement: a praise or complaint needs
 * {@link ASPECT_EVIDENCE_MIN_CONFIDENCE}, and a contradiction of the review's stars (`rating`,
 * null when unknown) {@link CONTRADICTION_MIN_CONFIDENCE}.
 */
export function aspectEvidenceAllowed(
  polarity: Polarity,
  rating: number | null,
  confidence: number,
  minConfidence = ASPECT_EVIDENCE_MIN_CONFIDENCE,
): boolean {
  if (polarity !== 'positive' && polarity !== 'negative') return true;
  if (confidence < minConfidence) return false;
  return rating === null || ratingDisagreement(polarity, rating, confidence) !== null;
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

  /**
   * @param minConfidence praise and complaints below this confidence are not quoted (aspect
   * evidence passes {@link ASPECT_EVIDENCE_MIN_CONFIDENCE}; subjects whose polarity is not one
   * model judgement, such as topics and people, pass 0).
   */
  constructor(private readonly minConfidence = 0) {}

  add(polarity: ReviewPolarity): void {
    this[polarity]++;
  }

  offer(candidate: Candidate): void {
    if (candidate.polarity === 'conflict') return;
    const { polarity, confidence } = candidate;
    if (polarity !== 'neutral' && confidence < this.minConfidence) return;
    const list = this.best[candidate.polarity];
    const disagreement = ratingDisagreement(
      candidate.polarity,
      candidate.rating,
      candidate.confidence,
    );
    if (disagreement === null) return;
    const rank = candidate.confidence - lengthPenalty(candidate.quote.length) - disagreement;
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
   * Up to `perPolarity` quotes per polarity, one per review and one per wording: agreeing with
   * their review's stars, confident, readable and recent first.
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
