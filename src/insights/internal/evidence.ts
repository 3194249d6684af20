import type { Evidence, EvidenceByPolarity } from '../schema.js';

/** The polarities evidence is listed under (`EvidenceByPolarity`). */
export type EvidencePolarity = keyof EvidenceByPolarity;

/**
 * The words of a quote, for telling repeats apart: letters and digits in lower case, single
 * spaces. Two reviews that say "They got me in and out quicker!!" and "they got me in and out
 * quicker!" say the same thing, and evidence shows it once.
 */
export function quoteKey(quote: string): string {
  return quote
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/**
 * The quotes of an answer, in proportion to the reviews behind it: up to `max` quotes drawn from
 * the ranked `pools`, each slot going to the polarity furthest below its share of `weights` so
 * far (ties: the larger share), so that the first quotes of the list are already balanced, the
 * majority's first. A quote of a review already quoted, or with the words of a quote already
 * chosen, is skipped; a polarity with no weight is never quoted, so an answer that no review
 * contradicts shows no contradicting quote.
 */
export function proportionalEvidence(
  pools: EvidenceByPolarity,
  weights: Readonly<Record<EvidencePolarity, number>>,
  max: number,
): Evidence[] {
  const keys = (['positive', 'negative', 'neutral'] as const).filter((k) => weights[k] > 0);
  const total = keys.reduce((sum, k) => sum + weights[k], 0);
  const next = { positive: 0, negative: 0, neutral: 0 };
  const taken = { positive: 0, negative: 0, neutral: 0 };
  const reviews = new Set<string>();
  const words = new Set<string>();
  /** The next quote of a pool not chosen yet (by review or by words), or null. */
  const peek = (k: EvidencePolarity): Evidence | null => {
    const pool = pools[k];
    while (next[k] < pool.length) {
      const e = pool[next[k]]!;
      if (!reviews.has(e.reviewId) && !words.has(quoteKey(e.quote))) return e;
      next[k]++;
    }
    return null;
  };
  const out: Evidence[] = [];
  while (out.length < max) {
    let best: EvidencePolarity | null = null;
    let bestDeficit = -Infinity;
    for (const k of keys) {
      if (!peek(k)) continue;
      const deficit = (weights[k] / total) * (out.length + 1) - taken[k];
      if (deficit > bestDeficit || (deficit === bestDeficit && weights[k] > weights[best!])) {
        best = k;
        bestDeficit = deficit;
      }
    }
    if (best === null) break;
    const e = peek(best)!;
    next[best]++;
    taken[best]++;
    reviews.add(e.reviewId);
    words.add(quoteKey(e.quote));
    out.push(e);
  }
  return out;
}
