import { describe, expect, it } from 'vitest';
import { reviewRecord } from '../../../test/helpers/records.js';
import type { Polarity } from '../analyzer.js';
import type { Evidence } from '../schema.js';
import { computeAspects } from './aspects.js';
import { proportionalEvidence, quoteKey } from './evidence.js';
import { computeFaq } from './faq.js';
import type { PreparedReview } from './prepare.js';
import { CONTRADICTION_MIN_CONFIDENCE, Tally } from './tally.js';
import { sentenceFlags, statedMinutes } from './themes.js';
import { topicInsights } from './topics.js';

const CATEGORIES = [
  { id: 'wait-time', name: 'Wait time' },
  { id: 'price-value', name: 'Price and value' },
];

let next = 0;
/** A prepared review of one sentence about one aspect, as the model would have analysed it. */
function prepared(
  text: string,
  category: string,
  polarity: Polarity,
  rating: number,
  confidence = 0.8,
): PreparedReview {
  const order = next++;
  return {
    review: reviewRecord({ key: `r${order}`, rating, body: text, date: '2025-06-01' }),
    order,
    sentences: [
      {
        text,
        aspects: [{ category, polarity, confidence }],
        themes: 0,
        services: [],
        staff: [],
        flags: sentenceFlags(text),
        minutes: statedMinutes(text),
      },
    ],
    textArea: null,
  };
}

const ev = (id: string, quote = `Quote ${id}.`): Evidence => ({ reviewId: id, quote });

describe('quoteKey', () => {
  it('ignores case, punctuation and spacing, so repeats of a sentence have one key', () => {
    expect(quoteKey('They got me in and out quicker!!')).toBe(
      quoteKey('they got me in and out   quicker!'),
    );
    expect(quoteKey('Muy rápido, gracias.')).toBe('muy rápido gracias');
  });
});

describe('proportionalEvidence', () => {
  const pools = {
    positive: [ev('p1'), ev('p2'), ev('p3'), ev('p4')],
    negative: [ev('n1'), ev('n2'), ev('n3'), ev('n4')],
    neutral: [ev('u1'), ev('u2')],
  };

  it('gives the majority the first quote and the others their share, in order', () => {
    // 19% positive, 64% negative, 17% neutral (the price-against-quote answer of the sample).
    const chosen = proportionalEvidence(pools, { positive: 15, negative: 49, neutral: 13 }, 4);
    expect(chosen.map((e) => e.reviewId)).toEqual(['n1', 'p1', 'n2', 'u1']);
    // Whatever a page keeps of the list's start is balanced too: two complaints, one praise.
    expect(chosen.slice(0, 3).map((e) => e.reviewId[0])).toEqual(['n', 'p', 'n']);
  });

  it('never quotes a polarity the counts do not hold', () => {
    const chosen = proportionalEvidence(pools, { positive: 4, negative: 0, neutral: 0 }, 4);
    expect(chosen.map((e) => e.reviewId)).toEqual(['p1', 'p2', 'p3', 'p4']);
  });

  it('skips a review already quoted and a quote with the same words, and stops when the pools run dry', () => {
    const chosen = proportionalEvidence(
      {
        positive: [ev('a', 'Quick and friendly!!'), ev('b', 'quick and friendly.'), ev('c')],
        negative: [ev('a', 'Too slow.'), ev('d')],
        neutral: [],
      },
      { positive: 1, negative: 1, neutral: 0 },
      6,
    );
    expect(chosen.map((e) => e.reviewId)).toEqual(['a', 'd', 'c']);
  });
});

describe('Tally evidence', () => {
  it('lists a sentence that several reviews repeat once', () => {
    const tally = new Tally();
    const quotes = ['Parts prices are high.', 'Parts prices are high!', 'The bill was too high.'];
    quotes.forEach((quote, i) =>
      tally.offer({
        reviewId: `r${i}`,
        order: i,
        quote,
        polarity: 'negative',
        confidence: 0.9,
        rating: 1,
      }),
    );
    expect(tally.evidence().negative.map((e) => e.quote)).toEqual([
      'Parts prices are high.',
      'The bill was too high.',
    ]);
  });
});

describe('evidence against the stars', () => {
  const offer = (
    tally: Tally,
    reviewId: string,
    polarity: Polarity,
    rating: number,
    confidence: number,
  ) =>
    tally.offer({
      reviewId,
      order: 0,
      quote: `The sentence of review ${reviewId}, of a readable length.`,
      polarity,
      confidence,
      rating,
    });

  it('quotes praise from well-rated reviews and complaints from poorly rated ones first', () => {
    const tally = new Tally();
    offer(tally, 'praise-from-1-star', 'positive', 1, 0.95);
    offer(tally, 'praise-from-3-stars', 'positive', 3, 0.9);
    offer(tally, 'praise-from-5-stars', 'positive', 5, 0.6);
    offer(tally, 'complaint-from-4-stars', 'negative', 4, 0.97);
    offer(tally, 'complaint-from-2-stars', 'negative', 2, 0.5);
    const ev = tally.evidence();
    // A 3-star review speaks both ways: after an agreeing quote only when it is less confident.
    expect(ev.positive.map((e) => e.reviewId)).toEqual([
      'praise-from-3-stars',
      'praise-from-5-stars',
      'praise-from-1-star',
    ]);
    expect(ev.negative.map((e) => e.reviewId)).toEqual([
      'complaint-from-2-stars',
      'complaint-from-4-stars',
    ]);
  });

  it(`never quotes a judgement that contradicts the stars below ${CONTRADICTION_MIN_CONFIDENCE} confidence`, () => {
    const tally = new Tally();
    offer(tally, 'complaint-from-5-stars', 'negative', 5, 0.87);
    offer(tally, 'praise-from-1-star', 'positive', 1, 0.82);
    offer(tally, 'neutral-from-1-star', 'neutral', 1, 0.5);
    expect(tally.evidence()).toEqual({
      positive: [],
      negative: [],
      neutral: [
        {
          reviewId: 'neutral-from-1-star',
          quote: 'The sentence of review neutral-from-1-star, of a readable length.',
        },
      ],
    });
  });

  it('keeps the counts whatever the quotes: the stars choose quotes, not figures', () => {
    const reviews = [
      // The model's mistakes of the sample: praise in a 1-star review, a complaint in a 5-star one.
      prepared(
        'plus lowballed me on my trade-in by thousands and they kept ran my credit!',
        'price-value',
        'positive',
        1,
        0.82,
      ),
      prepared(
        'They could have easily charged me for a new part but did not.',
        'price-value',
        'negative',
        5,
        0.87,
      ),
      prepared(
        'The parts counter gave me a fair price on OEM parts!',
        'price-value',
        'positive',
        5,
        0.7,
      ),
      prepared(
        'Their shop charge alone was more than the part itself.',
        'price-value',
        'negative',
        1,
        0.6,
      ),
    ];
    const [price] = computeAspects(reviews, [CATEGORIES[1]!], ['2025-06']);
    expect(price).toMatchObject({ mentions: 4, positive: 2, negative: 2 });
    expect(price!.evidence.positive.map((e) => e.quote)).toEqual([
      'The parts counter gave me a fair price on OEM parts!',
    ]);
    expect(price!.evidence.negative.map((e) => e.quote)).toEqual([
      'Their shop charge alone was more than the part itself.',
    ]);
  });
});

describe('FAQ evidence', () => {
  it('quotes the answer in proportion: mostly complaints when most reviews complain, never the same words twice', () => {
    const reviews = [
      prepared(
        'The final price matched the quote exactly, a fair price.',
        'price-value',
        'positive',
        5,
        0.95,
      ),
      prepared('The bill was way above the estimate they gave me.', 'price-value', 'negative', 1),
      prepared(
        'They charged far more than the quote, hidden fees everywhere.',
        'price-value',
        'negative',
        1,
      ),
      prepared(
        'The estimate was $400 lower than what I paid in the end.',
        'price-value',
        'negative',
        2,
      ),
      prepared(
        'They got me in and out quicker than the quick lube places!!',
        'wait-time',
        'positive',
        5,
      ),
      prepared(
        'they got me in and out quicker than the quick lube places!',
        'wait-time',
        'positive',
        5,
      ),
      prepared(
        'Waited three hours for a simple oil change, far too long.',
        'wait-time',
        'negative',
        2,
      ),
    ];
    const aspects = computeAspects(reviews, CATEGORIES, ['2025-06']);
    const faq = Object.fromEntries(
      computeFaq(reviews, aspects, topicInsights(reviews, null)).map((f) => [f.id, f]),
    );
    const price = faq['price-vs-quote']!;
    expect(price.basis).toMatchObject({ positive: 1, negative: 3 });
    const polarity = (e: Evidence) =>
      reviews.find((r) => r.review.id === e.reviewId)!.sentences[0]!.aspects[0]!.polarity;
    // The most confident quote is praise, yet three reviews in four complain: a complaint first.
    expect(price.evidence.map(polarity)).toEqual(['negative', 'negative', 'positive', 'negative']);
    const waits = faq['wait-times']!.evidence.map((e) => quoteKey(e.quote));
    expect(new Set(waits).size).toBe(waits.length);
    expect(waits).toHaveLength(2);
  });
});
