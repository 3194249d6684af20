import { setImmediate } from 'node:timers/promises';

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
  /**
   * Keeps only the analyses of these texts (the published ones), dropping the rest; skipped while
   * the cache holds no more entries than there are texts, so it never outgrows them.
   */
  retain(texts: readonly string[]): void;
  /**
   * Analyses the texts not cached yet in slices of about `sliceMs`, yielding to the event loop
   * between slices so a large first analysis never stalls the requests being served meanwhile.
   * Resolves with the number of texts analysed.
   */
  warm(texts: Iterable<string>, sliceMs?: number): Promise<number>;
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
    if (cache.size <= texts.length) return;
    const next = new Map<string, TextAnalysis>();
    for (const t of texts) {
      const hit = cache.get(t);
      if (hit) next.set(t, hit);
    }
    cache = next;
  };
  fn.warm = async (texts, sliceMs = 20) => {
    let analysed = 0;
    let sliceStart = performance.now();
    for (const text of texts) {
      if (cache.has(text)) continue;
      cache.set(text, analyze(text));
      analysed++;
      if (performance.now() - sliceStart >= sliceMs) {
        await setImmediate();
        sliceStart = performance.now();
      }
    }
    return analysed;
  };
  Object.defineProperty(fn, 'size', { get: () => cache.size });
  return fn;
}
