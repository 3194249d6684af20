import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { analyzeReview, DEALERSHIP_CATEGORIES, loadModel, type AbsaModel } from './absa/index.js';
import { defaultModelDir } from './absa/model.js';
import type { AnalysisStore } from '../store/index.js';
import {
  cachedAnalyzer,
  type AnalysisPersistence,
  type CachedAnalyzer,
  type TextAnalysis,
} from './analyzer.js';
import {
  computeInsights,
  computeInsightsInSlices,
  type InsightsInput,
  type InsightsResult,
} from './build.js';
import { SentenceCache } from './internal/prepare.js';
import type { Insights } from './schema.js';
import { dict, type Dict } from '../platform/dict.js';

type Metrics = Record<
  string,
  Record<
    string,
    { crossValidation?: { folds: number; mean: unknown }; testSplit?: unknown; command?: string }
  >
>;

function benchmarks(dir: string): Record<string, unknown> {
  let metrics: Metrics;
  try {
    metrics = JSON.parse(readFileSync(join(dir, 'metrics.json'), 'utf8')) as Metrics;
  } catch {
    return {};
  }
  const out: Dict<unknown> = dict();
  for (const [model, runs] of Object.entries(metrics)) {
    const full = runs['10-fold'];
    if (!full) continue;
    out[model] = {
      crossValidation: full.crossValidation
        ? { folds: full.crossValidation.folds, mean: full.crossValidation.mean }
        : null,
      ...(full.testSplit ? { testSplit: full.testSplit } : {}),
      reproduce: full.command ?? null,
    };
  }
  return out;
}

function reviewTexts(reviews: InsightsInput['reviews']): string[] {
  return reviews.flatMap((r) => (r.reviewBody ? [r.reviewBody] : []));
}

/** Computes `/insights.json` with the shipped dealership model; analyses are cached per text. */
export interface InsightsEngine {
  compute(input: InsightsInput): Insights;
  /**
   * The same insights as `compute`, with what each review is about (`InsightsResult.aspects`, for
   * the search), made in slices that yield to the event loop (the analysis of new texts in ~20 ms
   * slices, the aggregation between its sections), so a service rebuilding its insights keeps
   * answering requests meanwhile. `between` is awaited between the sections, and after each
   * 20,000 texts prepared.
   */
  computeInSlices(
    input: InsightsInput,
    signal?: AbortSignal,
    between?: () => Promise<unknown>,
  ): Promise<InsightsResult>;
  readonly analyzer: CachedAnalyzer;
}

/**
 * Version of the stored analysis format (`TextAnalysis`); part of every stored key, so a change of
 * the format, like a change of the model, makes the stored analyses unused rather than misread.
 */
const ANALYSIS_FORMAT = 1;

/** Texts read from the store (or analysed), then prepared, at a time. */
const PREPARE_CHUNK = 2_000;

/**
 * Texts prepared between two calls of `computeInSlices`' `between` (the build worker collects its
 * garbage there). The analyses read or made for them are garbage once their sentences are
 * prepared, and V8 let them pile up: at 100,000 stored analyses the process grew by about 120 MB
 * before its first collection. Collecting every 20,000 texts held that to about 15 MB, for about
 * 0.4 s more (every 2,000: 4 s more).
 */
const PAUSE_EVERY = 20_000;

export interface InsightsEngineOptions {
  /** Directory of the model files (default: the shipped `models/`). */
  modelDir?: string;
  /** Keep per-text analyses in the store, so a restart only analyses texts never seen before. */
  analyses?: AnalysisStore;
  /** Told when the stored analyses cannot be read or written (they are then recomputed). */
  onStoreError?: (err: unknown) => void;
}

/**
 * The dealership model as the analyzer uses it: loaded once, let go by `release` once the new
 * texts of a version are analysed (it takes about 60 MB, which the rest of the insights do not
 * need), and loaded again (about 0.2 s) when a later version brings texts never analysed.
 */
function modelAnalyzer(dir: string) {
  const loaded = loadModel('dealership', dir);
  let model: AbsaModel | null = loaded;
  // Only what the insights read is kept (and stored): spans and aspects.
  const analyze = (text: string): TextAnalysis => ({
    sentences: analyzeReview((model ??= loadModel('dealership', dir)), text).sentences.map(
      ({ start, end, aspects }) => ({
        start,
        end,
        aspects: aspects.map(({ category, polarity, confidence }) => ({
          category,
          polarity,
          confidence,
        })),
      }),
    ),
  });
  return {
    name: loaded.name,
    version: loaded.version,
    analyze,
    release: () => {
      model = null;
    },
  };
}

/** The stored analyses of this model (keyed by format, model, version and text), if any. */
function persistence(
  options: InsightsEngineOptions,
  name: string,
  version: string,
): AnalysisPersistence | undefined {
  if (!options.analyses) return undefined;
  const prefix = `${ANALYSIS_FORMAT}\u0000${name}\u0000${version}\u0000`;
  return {
    store: options.analyses,
    key: (text) =>
      createHash('sha256')
        .update(prefix + text)
        .digest('base64url'),
    onError: options.onStoreError ?? (() => undefined),
  };
}

/** How the insights were made, as they say it. */
function methodOf(name: string, version: string, dir: string): Insights['method'] {
  return {
    model: name,
    version,
    description:
      'Sentences are split with exact offsets; a linear model detects the dealership aspect categories of each sentence and judges the polarity of each category separately (negation scope, clause position, lexicon and word-cluster features), trained offline by `npm run train`. Figures count reviews; quotes are sentences copied from reviews.',
    benchmarks: benchmarks(dir),
  };
}

/**
 * Prepares the sentences of the texts the sentence cache has not prepared: only those are read
 * from the store or analysed, a chunk at a time, and their sentences prepared at once, so the
 * analyses of every text are never held together beside the sentences derived from them.
 */
async function prepareMissing(
  texts: readonly string[],
  input: InsightsInput,
  settings: { analyze: (text: string) => TextAnalysis; sentences: SentenceCache },
  analyzer: CachedAnalyzer,
  signal: AbortSignal | undefined,
  between: (() => Promise<unknown>) | undefined,
): Promise<void> {
  const missing = settings.sentences.missing(texts, input.business);
  let prepared = 0;
  for (let from = 0; from < missing.length; from += PREPARE_CHUNK) {
    const chunk = missing.slice(from, from + PREPARE_CHUNK);
    await analyzer.warm(chunk, 20, signal);
    signal?.throwIfAborted();
    settings.sentences.add(chunk, settings.analyze, input.business);
    prepared += chunk.length;
    if (between && prepared >= PAUSE_EVERY) {
      prepared = 0;
      await between();
    }
  }
}

/**
 * Loads the dealership ABSA model once and returns the engine that turns a data version's reviews
 * into insights. Texts analysed for one version are reused by the next, so an import that adds a
 * review only analyses that review; with `analyses`, they are also kept across restarts.
 */
export function createInsightsEngine(options: InsightsEngineOptions = {}): InsightsEngine {
  const dir = options.modelDir ?? defaultModelDir();
  const model = modelAnalyzer(dir);
  const analyzer = cachedAnalyzer(model.analyze, persistence(options, model.name, model.version));
  const sentences = new SentenceCache();
  // The sentence cache keeps what it derives from each analysis (the sentences and their aspects),
  // so it takes the analyses out of the analyzer's cache: at 100,000 reviews, holding both took
  // about 27 MB more.
  const settings = {
    categories: DEALERSHIP_CATEGORIES,
    analyze: (text: string) => analyzer.take(text),
    sentences,
    method: methodOf(model.name, model.version, dir),
  };
  /** Bounds the caches to the texts of the version just computed. */
  const settle = <T>(input: InsightsInput, result: T): T => {
    const texts = reviewTexts(input.reviews);
    analyzer.retain(texts);
    sentences.retain(texts);
    return result;
  };
  return {
    analyzer,
    compute(input) {
      return settle(input, computeInsights(input, settings));
    },
    async computeInSlices(input, signal, between) {
      const texts = reviewTexts(input.reviews);
      await prepareMissing(texts, input, settings, analyzer, signal, between);
      model.release();
      const result = settle(input, await computeInsightsInSlices(input, settings, signal, between));
      await analyzer.prune(texts);
      return result;
    },
  };
}
