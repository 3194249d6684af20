import { setImmediate } from 'node:timers/promises';
import type { AnalysisStore } from '../store/index.js';
import type { Polarity } from './absa/index.js';

export type { Polarity };

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
  warm(texts: Iterable<string>, sliceMs?: number, signal?: AbortSignal): Promise<number>;
  /**
   * With persistence: deletes the stored analyses of texts no longer published, when the store
   * holds more analyses than there are texts. Resolves with the number deleted.
   */
  prune(texts: readonly string[]): Promise<number>;
  /**
   * The analysis of a text, taken out of the cache (computed when it is not there): for a caller
   * that keeps what it derives from the analysis itself (the insights' sentence cache), so the
   * analyses of 100,000 texts are not held twice.
   */
  take(text: string): TextAnalysis;
  readonly size: number;
}

/** Stored analyses read, or written, per store call while warming. */
const LOAD_CHUNK = 2000;

/** Where analyses outlive the process, so that a restart does not analyse every text again. */
export interface AnalysisPersistence {
  store: AnalysisStore;
  /** The stored key of a text; it must change whenever the analyser's output could. */
  key(text: string): string;
  /** Told when the store cannot be read or written; the analyses are then computed and kept in memory. */
  onError(err: unknown): void;
}

/**
 * The analyses kept across data versions, keyed by the review text itself, and their stored copy
 * when there is one. State: the cache (replaced by `retain`), the analyser and the persistence.
 */
class AnalysisCache {
  cache = new Map<string, TextAnalysis>();

  constructor(
    private readonly analyze: Analyzer,
    private readonly persist: AnalysisPersistence | undefined,
  ) {}

  get(text: string): TextAnalysis {
    let hit = this.cache.get(text);
    if (!hit) {
      hit = this.analyze(text);
      this.cache.set(text, hit);
    }
    return hit;
  }

  take(text: string): TextAnalysis {
    const hit = this.cache.get(text);
    if (!hit) return this.analyze(text);
    this.cache.delete(text);
    return hit;
  }

  retain(texts: readonly string[]): void {
    if (this.cache.size <= texts.length) return;
    const next = new Map<string, TextAnalysis>();
    for (const t of texts) {
      const hit = this.cache.get(t);
      if (hit) next.set(t, hit);
    }
    this.cache = next;
  }

  async warm(texts: Iterable<string>, sliceMs = 20, signal?: AbortSignal): Promise<number> {
    const { persist } = this;
    let analysed = 0;
    // Written in chunks as they are computed, so a long first analysis keeps its progress; after
    // a failed write the rest stays in memory only (one report, not one per chunk).
    let saving = persist !== undefined;
    let computed: [string, string][] = [];
    let sliceStart = performance.now();
    for (const text of await this.load(texts)) {
      if (this.cache.has(text)) continue;
      const analysis = this.analyze(text);
      this.cache.set(text, analysis);
      analysed++;
      if (saving && persist) computed.push([persist.key(text), JSON.stringify(analysis)]);
      if (computed.length >= LOAD_CHUNK) {
        saving = await this.save(computed);
        computed = [];
      }
      if (performance.now() - sliceStart >= sliceMs) {
        await setImmediate();
        // An abort keeps what is analysed so far (cached, and stored below).
        if (signal?.aborted) break;
        sliceStart = performance.now();
      }
    }
    await this.save(computed);
    return analysed;
  }

  async prune(texts: readonly string[]): Promise<number> {
    const { persist } = this;
    if (!persist) return 0;
    try {
      const unique = new Set(texts);
      if ((await persist.store.count()) <= unique.size) return 0;
      return await persist.store.retain(new Set([...unique].map((t) => persist.key(t))));
    } catch (err) {
      persist.onError(err);
      return 0;
    }
  }

  /**
   * Loads the stored analyses of the texts not cached yet, in chunks with a turn of the event loop
   * between them; returns the texts still missing.
   */
  private async load(texts: Iterable<string>): Promise<string[]> {
    const { persist } = this;
    const missing = [...new Set(texts)].filter((t) => !this.cache.has(t));
    if (!persist || missing.length === 0) return missing;
    const left: string[] = [];
    for (let from = 0; from < missing.length; from += LOAD_CHUNK) {
      if (from > 0) await setImmediate();
      const chunk = missing.slice(from, from + LOAD_CHUNK);
      const keys = chunk.map((t) => persist.key(t));
      let stored: Map<string, string>;
      try {
        stored = await persist.store.get(keys);
      } catch (err) {
        persist.onError(err);
        return missing.filter((t) => !this.cache.has(t));
      }
      chunk.forEach((t, i) => {
        const json = stored.get(keys[i]!);
        if (json === undefined) left.push(t);
        else this.cache.set(t, JSON.parse(json) as TextAnalysis);
      });
    }
    return left;
  }

  /** Writes computed analyses to the store; false (reported, not thrown) when that failed. */
  private async save(entries: [string, string][]): Promise<boolean> {
    if (!this.persist || entries.length === 0) return true;
    try {
      await this.persist.store.put(entries);
      return true;
    } catch (err) {
      this.persist.onError(err);
      return false;
    }
  }
}

/**
 * Wraps an analyzer with a cache keyed by the review text itself (the key shares the string the
 * review holds, so it costs no copy), kept across data versions: a new version only analyses the
 * texts it has not seen. `retain` bounds it to the published texts. With `persist`, `warm` first
 * reads the analyses of uncached texts from the store and writes the ones it computes, so the
 * first version after a restart only analyses texts never seen before.
 */
export function cachedAnalyzer(analyze: Analyzer, persist?: AnalysisPersistence): CachedAnalyzer {
  const analyses = new AnalysisCache(analyze, persist);
  const fn = ((text: string) => analyses.get(text)) as CachedAnalyzer;
  fn.take = (text) => analyses.take(text);
  fn.retain = (texts) => analyses.retain(texts);
  fn.warm = (texts, sliceMs, signal) => analyses.warm(texts, sliceMs, signal);
  fn.prune = (texts) => analyses.prune(texts);
  Object.defineProperty(fn, 'size', { get: () => analyses.cache.size });
  return fn;
}
