import { createHash } from 'node:crypto';

export type Polarity = 'positive' | 'negative' | 'neutral' | 'conflict';

/** The aspects of one sentence of a review, found by the ABSA model. */
export interface SentenceAnalysis {
  /** Character span of the sentence in the review text: `text.slice(start, end)`. */
  start: number;
  end: number;
  aspects: { category: string; polarity: Polarity; confidence: number }[];
}

export interface TextAnalysis {
  sentences: SentenceAnalysis[];
}

/** Analyses one review text. Must be deterministic: the same text gives the same analysis. */
export type Analyzer = (text: string) => TextAnalysis;

/**
 * Wraps an analyzer with a cache keyed by a hash of the text, kept across data versions, so a
 * new version only analyses texts it has not seen. Entries of texts that are no longer published
 * are dropped at the next `retain`.
 */
export function cachedAnalyzer(
  analyze: Analyzer,
): Analyzer & { retain(texts: Iterable<string>): void; size(): number } {
  let cache = new Map<string, TextAnalysis>();
  const keyOf = (text: string) => createHash('sha1').update(text).digest('base64url');
  const fn = ((text: string) => {
    const key = keyOf(text);
    let hit = cache.get(key);
    if (!hit) {
      hit = analyze(text);
      cache.set(key, hit);
    }
    return hit;
  }) as Analyzer & { retain(texts: Iterable<string>): void; size(): number };
  fn.retain = (texts) => {
    const next = new Map<string, TextAnalysis>();
    for (const t of texts) {
      const key = keyOf(t);
      const hit = cache.get(key);
      if (hit) next.set(key, hit);
    }
    cache = next;
  };
  fn.size = () => cache.size;
  return fn;
}
