import { describe, expect, it } from 'vitest';
import type { Review } from '../../domain/review.js';
import { preparedReview } from '../../../test/helpers/prepared.js';
import { REVIEW_POLARITIES, type ReviewPolarity } from '../../domain/aspects.js';
import { AspectIndex, AspectIndexBuilder } from '../../reviews/aspect-index.js';
import { computeAspects, trendMonths } from './aspects.js';

const CATEGORIES = [
  { id: 'wait-time', name: 'Wait time' },
  { id: 'staff', name: 'Staff' },
  { id: 'price-value', name: 'Price and value' },
  { id: 'follow-up', name: 'Follow-up' },
];

const S = {
  welcoming: 'Tom at the desk was very welcoming to us.',
  rude: 'Then the cashier was rude about my coupon.',
  slow: 'The wait for the car took far too long.',
  friendly: 'The advisor was friendly and explained it all.',
  desk: 'Everyone at the front desk was friendly too.',
  fees: 'The price was fair but the fees were not.',
  counter: 'I spoke with a man at the counter.',
  parking: 'The parking lot was easy to get around.',
  quick: 'They were done in under an hour, great.',
};

// Newest first, as published. The two reviews that speak both ways have 3 stars: evidence prefers
// quotes that agree with their review's stars (tally.ts), which 3 stars never contradict.
const PREPARED = [
  preparedReview(0, { key: 'r0', date: '2025-03-05', rating: 3 }, [
    { text: S.welcoming, aspects: [['staff', 'positive', 0.9]] },
    { text: S.rude, aspects: [['staff', 'negative', 0.8]] },
    { text: S.slow, aspects: [['wait-time', 'negative', 0.85]] },
  ]),
  preparedReview(1, { key: 'r1', date: '2025-03-01', rating: 3 }, [
    { text: S.friendly, aspects: [['staff', 'positive', 0.7]] },
    { text: S.desk, aspects: [['staff', 'positive', 0.75]] },
  ]),
  preparedReview(2, { key: 'r5', date: '2025-02-11' }, []),
  preparedReview(3, { key: 'r2', date: '2025-02-10' }, [
    { text: S.fees, aspects: [['price-value', 'conflict', 0.6]] },
    { text: S.counter, aspects: [['staff', 'neutral', 0.5]] },
  ]),
  preparedReview(4, { key: 'r3', date: '2025-01-20' }, [
    { text: S.parking, aspects: [['parking', 'positive', 0.9]] },
  ]),
  preparedReview(5, { key: 'r4', date: '2024-06-01' }, [
    { text: S.quick, aspects: [['wait-time', 'positive', 0.9]] },
  ]),
];
const id = (key: string) =>
  PREPARED.find((p) => (p.review as Review).sourceReviewId === key)!.review.id;

const MONTHS = ['2025-01', '2025-02', '2025-03'];
const zero = { mentions: 0, positive: 0, negative: 0, neutral: 0, mixed: 0, score: null };

describe('trendMonths', () => {
  it('lists the last months up to the newest date, oldest first, across years', () => {
    expect(trendMonths('2025-03-05', 3)).toEqual(MONTHS);
    expect(trendMonths('2025-02-15', 4)).toEqual(['2024-11', '2024-12', '2025-01', '2025-02']);
    expect(trendMonths('2025-12-31', 1)).toEqual(['2025-12']);
    expect(trendMonths('2025-01-01', 13)[0]).toBe('2024-01');
    expect(trendMonths('2025-01-01', 24)).toHaveLength(24);
    expect(trendMonths(undefined, 24)).toEqual([]);
  });
});

describe('computeAspects', () => {
  const [wait, staff, price, followUp] = computeAspects(PREPARED, CATEGORIES, MONTHS);

  it('counts each review once per aspect, combining its sentences (mixed when both)', () => {
    expect(staff).toMatchObject({
      id: 'staff',
      name: 'Staff',
      mentions: 3,
      positive: 1, // r1: two positive sentences, one review
      negative: 0,
      neutral: 1, // r2
      mixed: 1, // r0: one positive and one negative sentence
      score: 0.333,
    });
    expect(wait).toMatchObject({ mentions: 2, positive: 1, negative: 1, neutral: 0, mixed: 0 });
    expect(wait!.score).toBe(0);
    // A conflict sentence is both: a mixed review.
    expect(price).toMatchObject({ mentions: 1, positive: 0, negative: 0, mixed: 1, score: 0 });
  });

  it('gives aspects nobody mentions zero counts, a null score and no evidence', () => {
    expect(followUp).toEqual({
      id: 'follow-up',
      name: 'Follow-up',
      ...zero,
      trend: MONTHS.map((month) => ({ month, ...zero })),
      evidence: { positive: [], negative: [], neutral: [] },
    });
  });

  it('ignores categories outside the taxonomy', () => {
    const all = computeAspects(PREPARED, CATEGORIES, MONTHS);
    expect(all.map((a) => a.id)).toEqual(CATEGORIES.map((c) => c.id));
    expect(all.reduce((n, a) => n + a.mentions, 0)).toBe(6);
  });

  it('makes a monthly trend of the same counts, leaving out reviews before the window', () => {
    expect(staff!.trend).toEqual([
      { month: '2025-01', ...zero },
      { month: '2025-02', mentions: 1, positive: 0, negative: 0, neutral: 1, mixed: 0, score: 0 },
      { month: '2025-03', mentions: 2, positive: 1, negative: 0, neutral: 0, mixed: 1, score: 0.5 },
    ]);
    // r4 (2024-06) counts in the total but in no month of the trend.
    expect(wait!.trend).toEqual([
      { month: '2025-01', ...zero },
      { month: '2025-02', ...zero },
      { month: '2025-03', mentions: 1, positive: 0, negative: 1, neutral: 0, mixed: 0, score: -1 },
    ]);
    for (const a of [wait!, staff!, price!]) {
      const inTrend = a.trend.reduce((n, t) => n + t.mentions, 0);
      expect(inTrend).toBeLessThanOrEqual(a.mentions);
      for (const t of a.trend)
        expect(t.positive + t.negative + t.neutral + t.mixed).toBe(t.mentions);
    }
  });

  it('quotes sentences verbatim, most confident first, one per review and polarity', () => {
    expect(staff!.evidence).toEqual({
      positive: [
        { reviewId: id('r0'), quote: S.welcoming },
        { reviewId: id('r1'), quote: S.desk }, // 0.75 beats the same review's 0.7
      ],
      negative: [{ reviewId: id('r0'), quote: S.rude }],
      neutral: [{ reviewId: id('r2'), quote: S.counter }],
    });
    expect(wait!.evidence).toEqual({
      positive: [{ reviewId: id('r4'), quote: S.quick }],
      negative: [{ reviewId: id('r0'), quote: S.slow }],
      neutral: [],
    });
    // Conflict sentences are never quoted as one polarity.
    expect(price!.evidence).toEqual({ positive: [], negative: [], neutral: [] });
    for (const a of [wait!, staff!, price!]) {
      for (const e of [...a.evidence.positive, ...a.evidence.negative, ...a.evidence.neutral]) {
        const review = PREPARED.find((p) => p.review.id === e.reviewId)!.review;
        expect(review.reviewBody).toContain(e.quote);
      }
    }
  });

  it('handles no reviews and no months', () => {
    expect(computeAspects([], CATEGORIES.slice(0, 1), [])).toEqual([
      {
        id: 'wait-time',
        name: 'Wait time',
        ...zero,
        trend: [],
        evidence: { positive: [], negative: [], neutral: [] },
      },
    ]);
  });
});

describe('issue 28: the positions of each aspect and polarity', () => {
  it('lists each review under the polarity the tally counts for it, in published order', () => {
    const positions = new AspectIndexBuilder(CATEGORIES.map((c) => c.id));
    const aspects = computeAspects(PREPARED, CATEGORIES, [], positions);
    const index = new AspectIndex(positions.finish());
    const at = (aspect: string | undefined, polarity?: ReviewPolarity) => [
      ...index.list(aspect, polarity),
    ];
    // r0 praises and blames the staff (mixed), r1 praises, r2 is neutral about them.
    expect(at('staff', 'mixed')).toEqual([0]);
    expect(at('staff', 'positive')).toEqual([1]);
    expect(at('staff', 'neutral')).toEqual([3]);
    expect(at('price-value', 'mixed')).toEqual([3]); // a conflict sentence
    expect(at('wait-time')).toEqual([0, 5]);
    // An aspect outside the categories (parking) is counted nowhere.
    expect(at(undefined)).toEqual([0, 1, 3, 5]);
    expect(at(undefined, 'negative')).toEqual([0]);
    for (const a of aspects) {
      for (const p of REVIEW_POLARITIES) expect(at(a.id, p), `${a.id} ${p}`).toHaveLength(a[p]);
    }
  });
});
