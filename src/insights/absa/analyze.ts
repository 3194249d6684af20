import { detectLanguage } from '../../domain/language.js';
import { embeddingTexts, prepareSentence } from './internal/prepare.js';
import { embedder } from './internal/sentence-encoder.js';
import { detectionProbabilities, pickCategories, polarityProbabilities } from './internal/score.js';
import type { AbsaModel } from './model.js';
import { splitSentences, type SentenceSpan } from './sentences.js';
import { POLARITIES, type Polarity } from './types.js';

/** One aspect found in a sentence. */
export interface SentenceAspect {
  category: string;
  polarity: Polarity;
  /** Probability of the chosen polarity. */
  polarityConfidence: number;
  /** Probability that the sentence talks about the category. */
  detectionConfidence: number;
  /** `detectionConfidence * polarityConfidence`: how sure the whole claim is. */
  confidence: number;
}

/** A sentence of a review with its offsets (`review.slice(start, end) === text`) and aspects. */
export interface AnalyzedSentence {
  text: string;
  start: number;
  end: number;
  language: 'en' | 'es';
  aspects: SentenceAspect[];
}

/** The analysis of one review. */
export interface ReviewAnalysis {
  model: string;
  modelVersion: string;
  sentences: AnalyzedSentence[];
}

function round(x: number): number {
  return Math.round(x * 1000) / 1000;
}

function analyzeSentence(
  model: AbsaModel,
  span: SentenceSpan,
  language: 'en' | 'es',
): AnalyzedSentence {
  const { text, start, end } = span;
  const embed = embedder(model.encoder);
  const p = prepareSentence(text, model.clusters, start, language, model.vectors, embed);
  const detected = detectionProbabilities(model, p);
  const picked = pickCategories(model, detected);
  const polarities = polarityProbabilities(model, p, picked);
  const aspects = picked.map((k, i) => {
    const probs = polarities[i]!;
    let best = 0;
    probs.forEach((q, i) => {
      if (q > probs[best]!) best = i;
    });
    return {
      category: model.categories[k]!.id,
      polarity: POLARITIES[best]!,
      polarityConfidence: round(probs[best]!),
      detectionConfidence: round(detected[k]!),
      confidence: round(probs[best]! * detected[k]!),
    };
  });
  return { text, start, end, language: p.language, aspects };
}

/**
 * Analyses a whole review: splits it into sentences with exact character offsets (so quotes are
 * verbatim substrings of the review), detects the aspect categories of each sentence and judges
 * each category's polarity separately, so one sentence can praise one aspect and fault another.
 * Pure and deterministic: the same model and text always give the same result, so callers may
 * cache it per text (see `createReviewAnalyzer`).
 */
export function analyzeReview(model: AbsaModel, text: string): ReviewAnalysis {
  const language = detectLanguage(text) ?? 'en';
  const sentences = splitSentences(text).map((s) => analyzeSentence(model, s, language));
  return { model: model.name, modelVersion: model.version, sentences };
}

/**
 * Encodes the sentences of reviews that a model with a sentence encoder will analyse (a no-op for
 * other models, such as the dealership model).
 */
export async function ensureReviewEmbeddings(
  model: AbsaModel,
  reviews: Iterable<string>,
): Promise<void> {
  if (!model.encoder) return;
  const texts: string[] = [];
  for (const review of reviews) {
    const language = detectLanguage(review) ?? 'en';
    for (const s of splitSentences(review)) texts.push(...embeddingTexts(s.text, language));
  }
  await model.encoder.ensure(texts);
}

/** A review analyser with a per-text cache. */
export interface ReviewAnalyzer {
  analyze(text: string): ReviewAnalysis;
  /** Number of cached texts. */
  readonly size: number;
}

/**
 * Wraps `analyzeReview` with a least-recently-used cache keyed by the review text, so that
 * re-building insights after an import only analyses the new or edited reviews. The cached
 * results are shared objects: treat them as read-only.
 */
export function createReviewAnalyzer(model: AbsaModel, maxEntries = 50_000): ReviewAnalyzer {
  const cache = new Map<string, ReviewAnalysis>();
  return {
    analyze(text: string): ReviewAnalysis {
      const hit = cache.get(text);
      if (hit) {
        cache.delete(text);
        cache.set(text, hit);
        return hit;
      }
      const result = analyzeReview(model, text);
      cache.set(text, result);
      if (cache.size > maxEntries) cache.delete(cache.keys().next().value!);
      return result;
    },
    get size() {
      return cache.size;
    },
  };
}
