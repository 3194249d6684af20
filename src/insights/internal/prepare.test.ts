import { describe, expect, it } from 'vitest';
import { rng, testBusiness } from '../../../test/helpers/fixtures.js';
import { reviewRecord } from '../../../test/helpers/records.js';
import { Business } from '../../domain/business.js';
import type { ReviewFacts } from '../../domain/review.js';
import { compileMentionMatcher } from '../../mentions/index.js';
import type { Analyzer, Polarity, SentenceAnalysis } from '../analyzer.js';
import { SentenceCache, type PreparedReview } from './prepare.js';
import { sentenceFlags, statedMinutes, textArea, THEME_PATTERNS } from './themes.js';

const BUSINESS = Business.parse(testBusiness());
const POLARITIES: Polarity[] = ['positive', 'negative', 'neutral', 'conflict'];
const CATEGORIES = ['staff', 'wait-time', 'price-value', 'follow-up', 'overall'];

/** A deterministic analyzer: sentences at `.`, aspects drawn from the sentence's own text. */
function analyzer(): Analyzer & { calls: string[] } {
  const calls: string[] = [];
  const analyze = (text: string) => {
    calls.push(text);
    const sentences: SentenceAnalysis[] = [];
    for (const m of text.matchAll(/[^.]+\./g)) {
      const start = m.index + (m[0].length - m[0].trimStart().length);
      const end = m.index + m[0].length;
      let seed = 0;
      for (const ch of text.slice(start, end)) seed = (seed * 31 + ch.charCodeAt(0)) >>> 0;
      const random = rng(seed);
      const aspects = Array.from({ length: Math.floor(random() * 4) }, () => ({
        category: CATEGORIES[Math.floor(random() * CATEGORIES.length)]!,
        polarity: POLARITIES[Math.floor(random() * POLARITIES.length)]!,
        confidence: random(),
      }));
      sentences.push({ start, end, aspects });
    }
    return { sentences };
  };
  return Object.assign(analyze, { calls });
}

const PHRASES = [
  'Mike Torres rotated the tires in 45 minutes.',
  'The loaner car was ready.',
  'They quoted a fair price for the brake pads.',
  'No pressure from the salesman at all.',
  'The oil change took 2 hours.',
  'Sarah Lopez called back the next day.',
  'The paperwork at finance was quick.',
  'Fine.',
  'Café con leche en la sala de espera.',
  '🚗 came back clean.',
];

/** Review `i`: a few phrases, numbered so that most texts differ. */
function review(i: number): ReviewFacts {
  const random = rng(i + 1);
  const parts = Array.from(
    { length: 1 + Math.floor(random() * 5) },
    () => PHRASES[Math.floor(random() * PHRASES.length)]!,
  );
  const body = i % 7 === 0 ? PHRASES[i % PHRASES.length]! : `Visit ${i % 900}. ${parts.join(' ')}`;
  return reviewRecord({ key: `r${i}`, body: i % 50 === 0 ? null : body });
}

/** What a prepared review holds, computed directly from the analysis (the plain way). */
function expected(review: ReviewFacts, order: number, analyze: Analyzer) {
  const body = review.reviewBody;
  if (!body) return { order, textArea: null, sentences: [] };
  const matcher = compileMentionMatcher(BUSINESS);
  return {
    order,
    textArea: textArea(body),
    sentences: analyze(body).sentences.map((s) => {
      const text = body.slice(s.start, s.end);
      const found = matcher.match({ name: null, reviewBody: text });
      return {
        text,
        aspects: s.aspects,
        themes: THEME_PATTERNS.reduce((bits, re, i) => (re.test(text) ? bits | (1 << i) : bits), 0),
        services: found.services,
        staff: found.technicians.map((t) => t.name),
        flags: sentenceFlags(text),
        minutes: statedMinutes(text),
      };
    }),
  };
}

const plain = (p: PreparedReview) => ({
  order: p.order,
  textArea: p.textArea,
  sentences: p.sentences.map((s) => ({ ...s, aspects: s.aspects.map((a) => ({ ...a })) })),
});

describe('SentenceCache', () => {
  // Enough texts for every column to grow many times (they start at 1,024 texts and 4,096
  // sentences and aspects).
  const reviews = Array.from({ length: 3_000 }, (_, i) => review(i));

  it('gives each review the sentences the analysis and the matchers give', () => {
    const cache = new SentenceCache();
    const analyze = analyzer();
    const prepared = cache.prepare(reviews, analyze, BUSINESS);
    const reference = analyzer();
    expect(prepared.map(plain)).toEqual(reviews.map((r, i) => expected(r, i, reference)));
    expect(prepared.some((p) => p.sentences.some((s) => s.staff.length > 0))).toBe(true);
    expect(prepared.some((p) => p.sentences.some((s) => s.minutes.length > 0))).toBe(true);
    expect(prepared.some((p) => p.sentences.some((s) => s.aspects.length > 2))).toBe(true);
    // Each distinct text is analysed once.
    const texts = new Set(reviews.flatMap((r) => (r.reviewBody ? [r.reviewBody] : [])));
    expect(analyze.calls).toHaveLength(texts.size);
  });

  it('prepares in chunks ahead (`missing`, `add`) what `prepare` then reads', () => {
    const cache = new SentenceCache();
    const analyze = analyzer();
    const texts = reviews.flatMap((r) => (r.reviewBody ? [r.reviewBody] : []));
    const missing = cache.missing(texts, BUSINESS);
    expect(missing).toEqual([...new Set(texts)]);
    for (let from = 0; from < missing.length; from += 700) {
      cache.add(missing.slice(from, from + 700), analyze, BUSINESS);
    }
    expect(cache.missing(texts, BUSINESS)).toEqual([]);
    const calls = analyze.calls.length;
    const prepared = cache.prepare(reviews, analyze, BUSINESS);
    expect(analyze.calls).toHaveLength(calls);
    expect(prepared.map(plain)).toEqual(reviews.map((r, i) => expected(r, i, analyzer())));
  });

  it('keeps only the published texts on `retain`, unchanged, and analyses only new ones after', () => {
    const cache = new SentenceCache();
    const analyze = analyzer();
    cache.prepare(reviews, analyze, BUSINESS);
    const kept = reviews.filter((_, i) => i % 3 !== 0);
    cache.retain(kept.flatMap((r) => (r.reviewBody ? [r.reviewBody] : [])));
    const removed = reviews.filter(
      (r, i) => i % 3 === 0 && r.reviewBody && !kept.some((k) => k.reviewBody === r.reviewBody),
    );
    expect(removed.length).toBeGreaterThan(100);
    const calls = analyze.calls.length;
    const next = [...kept, review(5_001)];
    const prepared = cache.prepare(next, analyze, BUSINESS);
    expect(analyze.calls.slice(calls)).toEqual([review(5_001).reviewBody]);
    expect(prepared.map(plain)).toEqual(next.map((r, i) => expected(r, i, analyzer())));
    // What was dropped is analysed again when it comes back.
    cache.prepare([removed[0]!], analyze, BUSINESS);
    expect(analyze.calls.at(-1)).toBe(removed[0]!.reviewBody);
  });

  it('starts afresh when the roster or the catalogue changes', () => {
    const cache = new SentenceCache();
    const analyze = analyzer();
    const some = reviews.slice(0, 50);
    cache.prepare(some, analyze, BUSINESS);
    const calls = analyze.calls.length;
    const renamed = Business.parse({
      ...testBusiness(),
      staff: [{ id: 'mike-torres', name: 'Mike Torres', role: 'technician' }],
    });
    const prepared = cache.prepare(some, analyze, renamed);
    expect(analyze.calls.length).toBe(calls * 2);
    expect(prepared.flatMap((p) => p.sentences.flatMap((s) => s.staff))).not.toContain(
      'Sarah Lopez',
    );
  });
});
