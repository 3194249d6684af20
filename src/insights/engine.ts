import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { analyzeReview, DEALERSHIP_CATEGORIES, loadModel } from './absa/index.js';
import { defaultModelDir } from './absa/model.js';
import { cachedAnalyzer, type CachedAnalyzer } from './analyzer.js';
import { computeInsights, computeInsightsInSlices, type InsightsInput } from './build.js';
import { SentenceCache } from './internal/prepare.js';
import type { Insights } from './schema.js';

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
  const out: Record<string, unknown> = {};
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
   * The same result as `compute`, made in slices that yield to the event loop (the analysis of new
   * texts in ~20 ms slices, the aggregation between its sections), so a service rebuilding its
   * insights keeps answering requests meanwhile.
   */
  computeInSlices(input: InsightsInput): Promise<Insights>;
  readonly analyzer: CachedAnalyzer;
}

/**
 * Loads the dealership ABSA model once and returns the engine that turns a data version's reviews
 * into insights. Texts analysed for one version are reused by the next, so an import that adds a
 * review only analyses that review.
 */
export function createInsightsEngine(dir: string = defaultModelDir()): InsightsEngine {
  const model = loadModel('dealership', dir);
  const analyzer = cachedAnalyzer((text) => analyzeReview(model, text));
  const sentences = new SentenceCache();
  const method: Insights['method'] = {
    model: model.name,
    version: model.version,
    description:
      'Sentences are split with exact offsets; a linear model detects the dealership aspect categories of each sentence and judges the polarity of each category separately (negation scope, clause position, lexicon and word-cluster features), trained offline by `npm run train`. Figures count reviews; quotes are sentences copied from reviews.',
    benchmarks: benchmarks(dir),
  };
  const options = { categories: DEALERSHIP_CATEGORIES, analyze: analyzer, sentences, method };
  /** Bounds the caches to the texts of the version just computed. */
  const settle = (input: InsightsInput, insights: Insights): Insights => {
    const texts = reviewTexts(input.reviews);
    analyzer.retain(texts);
    sentences.retain(texts);
    return insights;
  };
  return {
    analyzer,
    compute(input) {
      return settle(input, computeInsights(input, options));
    },
    async computeInSlices(input) {
      await analyzer.warm(reviewTexts(input.reviews));
      return settle(input, await computeInsightsInSlices(input, options));
    },
  };
}
