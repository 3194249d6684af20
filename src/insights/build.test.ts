import { describe, expect, it } from 'vitest';
import { testBusiness } from '../../test/helpers/fixtures.js';
import { reviewRecord, type ReviewSpec } from '../../test/helpers/records.js';
import { Business } from '../domain/business.js';
import type { Review } from '../domain/review.js';
import { compileMentionMatcher } from '../mentions/index.js';
import type { Analyzer, Polarity, SentenceAnalysis } from './analyzer.js';
import {
  computeInsights,
  computeInsightsInSlices,
  TREND_MONTHS,
  type InsightsMethod,
} from './build.js';
import { SentenceCache } from './internal/prepare.js';
import { Insights, type Evidence } from './schema.js';

const BUSINESS = Business.parse(testBusiness());
const matcher = compileMentionMatcher(BUSINESS);

const CATEGORIES = [
  { id: 'staff', name: 'Staff' },
  { id: 'wait-time', name: 'Wait time' },
  { id: 'price-value', name: 'Price and value' },
  { id: 'sales-experience', name: 'Sales experience' },
  { id: 'follow-up', name: 'Follow-up' },
  { id: 'scheduling', name: 'Scheduling' },
  { id: 'overall', name: 'Overall' },
];

/** The per-sentence aspects a model would find, written by hand: sentence text to aspects. */
const ANALYSES = new Map<string, [string, Polarity, number][]>([
  ['Sarah got my loaner car ready fast.', [['staff', 'positive', 0.9]]],
  ['The wait was only 45 minutes.', [['wait-time', 'positive', 0.8]]],
  ['The final price matched the quote exactly.', [['price-value', 'positive', 0.85]]],
  ['Waited 2 hours for an oil change.', [['wait-time', 'negative', 0.9]]],
  ['Sarah never called me back.', [['follow-up', 'negative', 0.8]]],
  ['The bill was way above the estimate.', [['price-value', 'negative', 0.9]]],
  ['The shuttle driver was friendly.', [['staff', 'positive', 0.7]]],
  ['It took 50 minutes, which was fine.', [['wait-time', 'positive', 0.6]]],
  ['No pressure at all from the salesman.', [['sales-experience', 'positive', 0.9]]],
  ['Sarah explained the warranty work clearly.', [['staff', 'positive', 0.8]]],
  ['The salesman was pushy and rude.', [['sales-experience', 'negative', 0.95]]],
  ['Average visit overall.', [['overall', 'neutral', 0.5]]],
]);

/** Splits a text into sentences with exact offsets and looks each one up in ANALYSES. */
const analyze: Analyzer = (text) => {
  const sentences: SentenceAnalysis[] = [];
  for (const m of text.matchAll(/[^.!?]+[.!?]+/g)) {
    const lead = m[0].length - m[0].trimStart().length;
    const start = m.index + lead;
    const end = m.index + m[0].trimEnd().length;
    const aspects = (ANALYSES.get(text.slice(start, end)) ?? []).map(
      ([category, polarity, confidence]) => ({ category, polarity, confidence }),
    );
    sentences.push({ start, end, aspects });
  }
  return { sentences };
};

const METHOD: InsightsMethod = {
  categories: CATEGORIES,
  analyze,
  method: { model: 'hand-made', version: '1', description: 'Test analyses.', benchmarks: {} },
};

/** A review whose mentions are matched in its text, as ingest derives them. */
function review(spec: ReviewSpec): Review {
  const found = matcher.match({ name: spec.title ?? null, reviewBody: spec.body ?? null });
  return reviewRecord({
    ...spec,
    technicians: found.technicians.map((t) => t.name),
    services: found.services,
  });
}

const answeredAfter = (date: string, hours: number) => ({
  text: 'Thank you.',
  dateModified: new Date(Date.parse(`${date}T12:00:00.000Z`) + hours * 3_600_000).toISOString(),
});

// Newest first, as published.
const REVIEWS: Review[] = [
  review({
    key: 'r1',
    date: '2025-06-20',
    rating: 5,
    body: 'Sarah got my loaner car ready fast. The wait was only 45 minutes. The final price matched the quote exactly.',
    ownerResponse: answeredAfter('2025-06-20', 5),
  }),
  review({
    key: 'r2',
    date: '2025-06-10',
    rating: 2,
    body: 'Waited 2 hours for an oil change. Sarah never called me back. The bill was way above the estimate.',
    ownerResponse: answeredAfter('2025-06-10', 20),
  }),
  review({
    key: 'r3',
    date: '2025-05-02',
    rating: 4,
    body: 'The shuttle driver was friendly. It took 50 minutes, which was fine.',
  }),
  review({
    key: 'r4',
    date: '2025-03-15',
    rating: 5,
    body: 'No pressure at all from the salesman. Sarah explained the warranty work clearly.',
  }),
  review({
    key: 'r5',
    date: '2025-01-05',
    rating: 1,
    body: 'The salesman was pushy and rude. No loaner was available.',
    ownerResponse: { text: 'Sorry.', dateModified: null },
  }),
  review({ key: 'r6', date: '2024-11-20', rating: 3, body: 'Average visit overall.' }),
  review({ key: 'r7', date: '2024-08-01', rating: 5, title: 'Great', body: null }),
];
const id = (key: string) => REVIEWS.find((r) => r.sourceReviewId === key)!.id;

const INPUT = { reviews: REVIEWS, business: BUSINESS, changedAt: '2025-06-21T00:00:00.000Z' };

/** Every quote in the document, wherever it sits. */
function allEvidence(value: unknown, out: Evidence[] = []): Evidence[] {
  if (Array.isArray(value)) for (const v of value) allEvidence(v, out);
  else if (value && typeof value === 'object') {
    const o = value as Record<string, unknown>;
    if (typeof o.reviewId === 'string' && typeof o.quote === 'string')
      out.push({ reviewId: o.reviewId, quote: o.quote });
    else for (const v of Object.values(o)) allEvidence(v, out);
  }
  return out;
}

describe('computeInsights', () => {
  const insights = computeInsights(INPUT, METHOD);

  it('gives a valid document over the period of the reviews', () => {
    expect(Insights.parse(insights)).toEqual(insights);
    expect(insights.reviewCount).toBe(7);
    expect(insights.generatedAt).toBe(INPUT.changedAt);
    expect(insights.period).toEqual({ from: '2024-08-01', to: '2025-06-20' });
    expect(insights.method).toBe(METHOD.method);
    expect(insights.aspects.map((a) => a.id)).toEqual(CATEGORIES.map((c) => c.id));
    for (const a of insights.aspects) expect(a.trend).toHaveLength(TREND_MONTHS);
    expect(insights.aspects[0]!.trend.at(-1)!.month).toBe('2025-06');
  });

  it('quotes only sentences found verbatim in the text of the review it names', () => {
    const evidence = allEvidence(insights);
    expect(evidence.length).toBeGreaterThan(20);
    for (const e of evidence) {
      const r = REVIEWS.find((x) => x.id === e.reviewId);
      expect(r, e.reviewId).toBeDefined();
      expect(r!.reviewBody, e.quote).toContain(e.quote);
      expect(ANALYSES.has(e.quote) || e.quote === 'No loaner was available.').toBe(true);
    }
  });

  it('counts each aspect as the reviews whose sentences name it', () => {
    const counts = Object.fromEntries(
      insights.aspects.map((a) => [a.id, [a.mentions, a.positive, a.negative, a.neutral, a.mixed]]),
    );
    expect(counts).toEqual({
      staff: [3, 3, 0, 0, 0], // r1, r3, r4
      'wait-time': [3, 2, 1, 0, 0], // r1, r3 positive; r2 negative
      'price-value': [2, 1, 1, 0, 0],
      'sales-experience': [2, 1, 1, 0, 0],
      'follow-up': [1, 0, 1, 0, 0],
      scheduling: [0, 0, 0, 0, 0],
      overall: [1, 0, 0, 1, 0],
    });
    const waits = insights.aspects.find((a) => a.id === 'wait-time')!;
    expect(waits.score).toBe(0.333);
    expect(waits.trend.slice(-2).map((t) => [t.month, t.mentions, t.score])).toEqual([
      ['2025-05', 1, 1],
      ['2025-06', 2, 0],
    ]);
  });

  it('finds staff and services through the roster and catalogue', () => {
    expect(insights.entities.technicians).toMatchObject([
      { name: 'Sarah Lopez', role: 'technician', mentions: 3, positive: 2, negative: 1 },
    ]);
    expect(insights.entities.technicians[0]!.evidence.negative).toEqual([
      { reviewId: id('r2'), quote: 'Sarah never called me back.' },
    ]);
    const services = insights.entities.services.map((s) => [s.id, s.mentions]);
    expect(services).toEqual([
      ['oil-change', 1],
      ['brakes', 0],
      ['tire-rotation', 0],
    ]);
  });

  it('finds topics by their phrases, with recent mentions of the last 90 days', () => {
    const topics = Object.fromEntries(
      insights.topics.map((t) => [t.id, [t.mentions, t.recentMentions, t.positive, t.negative]]),
    );
    // Loaner: r1 (a positive sentence) and r5 (no opinion in the sentence: its 1 star). The last
    // 90 days start on 2025-03-23: r4 (warranty, 2025-03-15) is before them.
    expect(topics).toEqual({
      'loaner-car': [2, 1, 1, 1],
      shuttle: [1, 1, 1, 0],
      warranty: [1, 0, 1, 0],
    });
  });

  it('answers the FAQ from the counted reviews, saying when too few tell', () => {
    const faq = Object.fromEntries(insights.faq.map((f) => [f.id, f]));
    expect(insights.faq.map((f) => f.id)).toEqual([
      'loaner-cars',
      'wait-times',
      'price-vs-quote',
      'appointments',
      'warranty-recalls',
      'sales-pressure',
      'follow-up',
    ]);
    expect(faq['loaner-cars']!.answer).toBe(
      '3 reviews mention loaner cars or the shuttle: 67% positively, 33% negatively.',
    );
    expect(faq['wait-times']!.answer).toBe(
      '3 reviews mention wait times: 67% positively, 33% negatively. Where customers state a duration (3 times), the median is 50 minutes.',
    );
    expect(faq['wait-times']!.basis).toEqual({
      reviews: 3,
      positive: 2,
      negative: 1,
      neutral: 0,
      mixed: 0,
    });
    expect(faq['price-vs-quote']!.basis).toMatchObject({ reviews: 2, positive: 1, negative: 1 });
    expect(faq['price-vs-quote']!.answer).toBe(
      'Too few reviews mention prices compared with quotes or estimates to tell (2).',
    );
    expect(faq['sales-pressure']!.basis).toMatchObject({ reviews: 2, positive: 1, negative: 1 });
    expect(faq['appointments']!.answer).toBe(
      'Too few reviews mention scheduling and appointments to tell (0).',
    );
    expect(faq['appointments']!.evidence).toEqual([]);
    expect(faq['follow-up']!.evidence).toEqual([
      { reviewId: id('r2'), quote: 'Sarah never called me back.' },
    ]);
  });

  it('measures owner responses and summarises from the same figures', () => {
    expect(insights.ownerResponses).toEqual({
      responded: 3,
      total: 7,
      rate: 0.429,
      medianResponseHours: 12.5,
    });
    expect(insights.changes).toEqual([]);
    expect(insights.summary.text).toContain(
      'Lately, no clear change: no topic moved more than chance explains (last three months against the year before).',
    );
    expect(insights.summary.text).toContain(
      'The business answered 43% of reviews, typically within 12.5 hours.',
    );
  });

  it('gives the same document in slices, and again from a warm sentence cache', async () => {
    const sentences = new SentenceCache();
    const withCache = { ...METHOD, sentences };
    expect((await computeInsightsInSlices(INPUT, withCache)).insights).toEqual(insights);
    expect(computeInsights(INPUT, withCache)).toEqual(insights);
  });
});

describe('computeInsights without reviews', () => {
  it('gives zero counts, null scores and rates, no quotes and the empty summary', () => {
    const empty = computeInsights(
      { reviews: [], business: null, changedAt: '2025-01-01T00:00:00.000Z' },
      METHOD,
    );
    expect(Insights.parse(empty)).toEqual(empty);
    expect(empty).toMatchObject({
      reviewCount: 0,
      period: { from: null, to: null },
      entities: { technicians: [], services: [], serviceAreas: [] },
      topics: [],
      changes: [],
      ownerResponses: { responded: 0, total: 0, rate: null, medianResponseHours: null },
      summary: { text: 'There are no reviews yet.', strengths: [], weaknesses: [], recent: [] },
    });
    for (const a of empty.aspects) {
      expect(a).toMatchObject({ mentions: 0, score: null, trend: [] });
    }
    expect(empty.faq).toHaveLength(7);
    for (const f of empty.faq) {
      expect(f.basis.reviews).toBe(0);
      expect(f.answer).toMatch(/^Too few reviews mention .+ to tell \(0\)\.$/);
    }
    expect(allEvidence(empty)).toEqual([]);
  });
});
