import { setImmediate } from 'node:timers/promises';
import type { Business } from '../domain/business.js';
import type { ReviewFacts } from '../domain/review.js';
import type { Analyzer } from './analyzer.js';
import { computeAspects, trendMonths, type Category } from './internal/aspects.js';
import { addDays, computeChanges, RECENT_DAYS } from './internal/changes.js';
import { serviceAreaInsights, serviceInsights, technicianInsights } from './internal/entities.js';
import { computeFaq } from './internal/faq.js';
import { SentenceCache } from './internal/prepare.js';
import { ownerResponseStats } from './internal/responses.js';
import { computeSummary } from './internal/summary.js';
import { topicInsights } from './internal/topics.js';
import type { Insights } from './schema.js';
import { AspectIndexBuilder, type AspectIndexData } from '../reviews/aspect-index.js';

export interface InsightsInput {
  /** Published reviews, newest first. */
  reviews: readonly ReviewFacts[];
  business: Business | null;
  /** Commit time of the data version (`generatedAt`). */
  changedAt: string;
}

export interface InsightsMethod {
  categories: readonly Category[];
  analyze: Analyzer;
  /** Prepared sentences per review text, kept across data versions by the caller. */
  sentences?: SentenceCache;
  method: Insights['method'];
}

/**
 * The insights of a data version, and what each review is about as they counted it (per aspect
 * and polarity, the positions in `InsightsInput.reviews`' order: the search's `aspect` and
 * `polarity` filters).
 */
export interface InsightsResult {
  insights: Insights;
  aspects: AspectIndexData;
}

/** Months shown in each aspect's trend. */
export const TREND_MONTHS = 24;

/**
 * The computation of `/insights.json`, as steps: it pauses (`yield`) between its sections so that
 * an asynchronous caller can let other work run; a synchronous caller simply runs it through.
 */
function* insightSteps(input: InsightsInput, m: InsightsMethod): Generator<void, InsightsResult> {
  const { reviews, business } = input;
  const prepared = (m.sentences ?? new SentenceCache()).prepare(reviews, m.analyze, business);
  yield;
  const newest = reviews[0]?.date;
  const positions = new AspectIndexBuilder(m.categories.map((c) => c.id));
  const months = trendMonths(newest, TREND_MONTHS);
  const aspects = computeAspects(prepared, m.categories, months, positions);
  const changes = computeChanges(prepared, m.categories, newest);
  yield;
  const topics = topicInsights(prepared, newest ? addDays(newest, -(RECENT_DAYS - 1)) : null);
  const ownerResponses = ownerResponseStats(reviews);
  yield;
  const technicians = technicianInsights(prepared, business);
  yield;
  const services = serviceInsights(prepared, business);
  const serviceAreas = serviceAreaInsights(prepared);
  yield;
  const insights: Insights = {
    reviewCount: reviews.length,
    generatedAt: input.changedAt,
    period: { from: reviews.at(-1)?.date ?? null, to: newest ?? null },
    aspects,
    entities: { technicians, services, serviceAreas },
    topics,
    faq: computeFaq(prepared, aspects, topics),
    summary: computeSummary(aspects, changes, ownerResponses, reviews.length),
    changes,
    ownerResponses,
    method: m.method,
  };
  return { insights, aspects: positions.finish() };
}

/**
 * Computes `/insights.json` from the published reviews: every review text is analysed once (the
 * analyzer caches per text), then every figure is a count over those analyses, and every quote a
 * sentence copied from a review. Deterministic for a given data version.
 */
export function computeInsights(input: InsightsInput, m: InsightsMethod): Insights {
  return computeInsightsResult(input, m).insights;
}

/** `computeInsights`, with the positions of each aspect and polarity (`InsightsResult`). */
export function computeInsightsResult(input: InsightsInput, m: InsightsMethod): InsightsResult {
  const steps = insightSteps(input, m);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/**
 * `computeInsightsResult`, yielding to the event loop between its sections (or awaiting `between`, which
 * the build worker uses to collect what each section left).
 */
export async function computeInsightsInSlices(
  input: InsightsInput,
  m: InsightsMethod,
  signal?: AbortSignal,
  between: () => Promise<unknown> = () => setImmediate(),
): Promise<InsightsResult> {
  const steps = insightSteps(input, m);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
    await between();
    signal?.throwIfAborted();
  }
}
