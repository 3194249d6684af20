import { describe, expect, it } from 'vitest';
import type { Polarity } from '../analyzer.js';
import { combine, ratingPolarity, Tally, type Candidate } from './tally.js';

/** A quote of readable length (25 to 240 characters: no length penalty). */
const quote = (n: number | string) => `This is sentence ${n}, of a readable length.`;

/** A candidate whose review's stars agree with its polarity unless told. */
const candidate = (over: Partial<Candidate> & { reviewId: string }): Candidate => ({
  order: 0,
  quote: quote(over.reviewId),
  polarity: 'positive',
  confidence: 0.9,
  rating: over.polarity === 'negative' ? 1 : 5,
  ...over,
});

describe('combine and ratingPolarity', () => {
  it('combines the sentence polarities of one review about one subject', () => {
    const cases: [Polarity[], string][] = [
      [[], 'neutral'],
      [['neutral'], 'neutral'],
      [['positive'], 'positive'],
      [['neutral', 'positive', 'positive'], 'positive'],
      [['negative', 'neutral'], 'negative'],
      [['positive', 'negative'], 'mixed'],
      [['conflict'], 'mixed'],
      [['positive', 'conflict'], 'mixed'],
    ];
    for (const [polarities, expected] of cases)
      expect(combine(polarities), `${polarities}`).toBe(expected);
  });

  it('reads 4 and 5 stars as positive, 3 as neutral, 1 and 2 as negative', () => {
    expect([1, 2, 3, 4, 5].map(ratingPolarity)).toEqual([
      'negative',
      'negative',
      'neutral',
      'positive',
      'positive',
    ]);
  });
});

describe('Tally', () => {
  it('counts review polarities and scores (positive - negative) / mentions, to 3 decimals', () => {
    const t = new Tally();
    expect(t.mentions).toBe(0);
    expect(t.sentiment()).toEqual({ positive: 0, negative: 0, neutral: 0, mixed: 0, score: null });
    for (const p of ['positive', 'positive', 'negative', 'neutral', 'mixed', 'positive'] as const)
      t.add(p);
    expect(t.mentions).toBe(6);
    expect(t.sentiment()).toEqual({ positive: 3, negative: 1, neutral: 1, mixed: 1, score: 0.333 });
    const two = new Tally();
    two.add('positive');
    two.add('positive');
    two.add('negative');
    expect(two.sentiment().score).toBe(0.333);
    const negative = new Tally();
    negative.add('negative');
    negative.add('negative');
    negative.add('positive');
    expect(negative.sentiment().score).toBe(-0.333);
    const allMixed = new Tally();
    allMixed.add('mixed');
    expect(allMixed.sentiment().score).toBe(0);
  });

  it('offers no evidence until candidates are offered, and never conflict sentences', () => {
    const t = new Tally();
    expect(t.evidence()).toEqual({ positive: [], negative: [], neutral: [] });
    t.offer(candidate({ reviewId: 'r1', polarity: 'conflict' }));
    expect(t.evidence()).toEqual({ positive: [], negative: [], neutral: [] });
    // Offering evidence counts nothing: counts come from add().
    expect(t.mentions).toBe(0);
  });

  it('picks the most confident quotes per polarity, one per review, newer first on ties', () => {
    const t = new Tally();
    t.offer(candidate({ reviewId: 'old', order: 5, confidence: 0.8 }));
    t.offer(candidate({ reviewId: 'new', order: 1, confidence: 0.8 }));
    t.offer(candidate({ reviewId: 'best', order: 9, confidence: 0.99 }));
    t.offer(candidate({ reviewId: 'weak', order: 0, confidence: 0.5 }));
    t.offer(candidate({ reviewId: 'best', order: 9, confidence: 0.95, quote: quote('best 2') }));
    t.offer(candidate({ reviewId: 'bad', polarity: 'negative', confidence: 0.7 }));
    t.offer(candidate({ reviewId: 'meh', polarity: 'neutral', confidence: 0.6 }));
    const ev = t.evidence();
    expect(ev.positive).toEqual([
      { reviewId: 'best', quote: quote('best') },
      { reviewId: 'new', quote: quote('new') },
      { reviewId: 'old', quote: quote('old') },
    ]);
    expect(ev.negative).toEqual([{ reviewId: 'bad', quote: quote('bad') }]);
    expect(ev.neutral).toEqual([{ reviewId: 'meh', quote: quote('meh') }]);
    expect(t.evidence(1).positive).toEqual([{ reviewId: 'best', quote: quote('best') }]);
    expect(t.evidence(4).positive.map((e) => e.reviewId)).toEqual(['best', 'new', 'old', 'weak']);
  });

  it('prefers readable quotes: short ones lose 0.3 of confidence, very long ones 0.4', () => {
    const t = new Tally();
    t.offer(candidate({ reviewId: 'short', confidence: 0.95, quote: 'Great!' }));
    t.offer(candidate({ reviewId: 'long', confidence: 0.99, quote: 'x'.repeat(241) }));
    t.offer(candidate({ reviewId: 'fine', confidence: 0.7 }));
    t.offer(candidate({ reviewId: 'edge', confidence: 0.6, quote: 'y'.repeat(240) }));
    // Ranks: fine 0.7, short 0.65, edge 0.6 (240 characters is no penalty), long 0.59.
    expect(t.evidence(4).positive.map((e) => e.reviewId)).toEqual([
      'fine',
      'short',
      'edge',
      'long',
    ]);
  });

  it('keeps quotes from other reviews when one review has many confident sentences', () => {
    const t = new Tally();
    for (let i = 0; i < 13; i++)
      t.offer(candidate({ reviewId: 'long-review', confidence: 0.95, quote: quote(i) }));
    t.offer(candidate({ reviewId: 'second', order: 1, confidence: 0.9 }));
    t.offer(candidate({ reviewId: 'third', order: 2, confidence: 0.8 }));
    expect(t.evidence().positive).toEqual([
      { reviewId: 'long-review', quote: quote(0) },
      { reviewId: 'second', quote: quote('second') },
      { reviewId: 'third', quote: quote('third') },
    ]);
  });

  it('keeps the best candidates whatever the order they are offered in', () => {
    // 30 reviews with distinct confidences, offered in a scrambled order.
    const order = Array.from({ length: 30 }, (_, i) => (i * 17) % 30);
    const t = new Tally();
    for (const i of order) t.offer(candidate({ reviewId: `r${i}`, order: i, confidence: i / 100 }));
    expect(t.evidence().positive.map((e) => e.reviewId)).toEqual(['r29', 'r28', 'r27']);
  });
});
