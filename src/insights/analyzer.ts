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

export interface CachedAnalyzer extends Analyzer {
  /** Keeps only the analyses of these texts (the published ones), dropping the rest. */
  retain(texts: Iterable<string>): void;
  readonly size: number;
}

/**
 * Wraps an analyzer with a cache keyed by the review text itself (the key shares the string the
 * review holds, so it costs no copy), kept across data versions: a new version only analyses the
 * texts it has not seen. `retain` bounds it to the published texts.
 */
export function cachedAnalyzer(analyze: Analyzer): CachedAnalyzer {
  let cache = new Map<string, TextAnalysis>();
  const fn = ((text: string) => {
    let hit = cache.get(text);
    if (!hit) {
      hit = analyze(text);
      cache.set(text, hit);
    }
    return hit;
  }) as CachedAnalyzer;
  fn.retain = (texts) => {
    const next = new Map<string, TextAnalysis>();
    for (const t of texts) {
      const hit = cache.get(t);
      if (hit) next.set(t, hit);
    }
    cache = next;
  };
  Object.defineProperty(fn, 'size', { get: () => cache.size });
  return fn;
}
