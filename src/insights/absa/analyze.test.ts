import { describe, expect, it } from 'vitest';
import { analyzeReview, createReviewAnalyzer, ensureReviewEmbeddings } from './analyze.js';
import { loadModel } from './model.js';
import { ensureEmbeddings, predict } from './predict.js';
import { DEALERSHIP_CATEGORIES } from './taxonomy.js';
import { POLARITIES } from './types.js';

const dealership = loadModel('dealership');

describe('analyzeReview', () => {
  const review =
    'Our advisor Maria was friendly and kept us updated. We bought a truck here last spring. ' +
    'They charged more than the quote.';

  it('gives sentences whose offsets quote the review verbatim', () => {
    const analysis = analyzeReview(dealership, review);
    expect(analysis.sentences).toHaveLength(3);
    for (const s of analysis.sentences) expect(review.slice(s.start, s.end)).toBe(s.text);
  });

  it('labels aspects from the dealership taxonomy with a polarity and confidences in [0, 1]', () => {
    const ids = new Set(DEALERSHIP_CATEGORIES.map((c) => c.id));
    for (const s of analyzeReview(dealership, review).sentences) {
      for (const a of s.aspects) {
        expect(ids.has(a.category)).toBe(true);
        expect(POLARITIES).toContain(a.polarity);
        for (const c of [a.confidence, a.detectionConfidence, a.polarityConfidence]) {
          expect(c).toBeGreaterThanOrEqual(0);
          expect(c).toBeLessThanOrEqual(1);
        }
      }
    }
  });

  it('finds the expected aspects in plain sentences', () => {
    const [staff, narrative, price] = analyzeReview(dealership, review).sentences;
    expect(staff!.aspects).toContainEqual(
      expect.objectContaining({ category: 'staff-communication', polarity: 'positive' }),
    );
    expect(narrative!.aspects).toEqual([]);
    expect(price!.aspects).toContainEqual(
      expect.objectContaining({ category: 'price-value', polarity: 'negative' }),
    );
  });

  it('judges two aspects of one sentence separately', () => {
    const result = predict(dealership, 'The advisor was great but the wait was awful.', [
      'staff-communication',
      'wait-time',
    ]);
    expect(result).toEqual([
      { category: 'staff-communication', polarity: 'positive' },
      { category: 'wait-time', polarity: 'negative' },
    ]);
  });

  it('finds an aspect that praise of another hides in the same sentence, by its clause', () => {
    const sentence = 'The advisor was great but the wait was awful.';
    expect(predict(dealership, sentence)).toEqual([
      { category: 'staff-communication', polarity: 'positive' },
      { category: 'wait-time', polarity: 'negative' },
    ]);
    // Read as a whole sentence only, the praise keeps wait time under its threshold.
    const wholeOnly = { ...dealership, features: { ...dealership.features, clauseDetection: 0 } };
    expect(predict(wholeOnly, sentence)).toEqual([
      { category: 'staff-communication', polarity: 'positive' },
    ]);
  });

  it('reads how long a visit took: hours are a complaint, minutes praise', () => {
    // No opinion word in either; the duration's class says which side it is on.
    for (const sentence of ['The whole visit took six hours.', 'They finished two days late.']) {
      expect(predict(dealership, sentence, ['wait-time'])).toEqual([
        { category: 'wait-time', polarity: 'negative' },
      ]);
    }
    expect(predict(dealership, 'The whole process took 45 minutes.', ['wait-time'])).toEqual([
      { category: 'wait-time', polarity: 'positive' },
    ]);
  });

  it('finds the second topic of a run-on sentence with no punctuation, by its clause', () => {
    // Survey answers run two topics together; the detector's clause reading breaks them where a
    // subject pronoun starts the next clause (`runOnClauses`), the polarity features do not.
    const sentence = 'the car was washed nicely it was hard to get an appointment';
    const categories = (model: typeof dealership): string[] =>
      predict(model, sentence).map((a) => a.category);
    expect(categories(dealership)).toEqual(['vehicle-cleanliness', 'scheduling']);
    const punctuationOnly = {
      ...dealership,
      features: { ...dealership.features, runOnClauses: false },
    };
    expect(categories(punctuationOnly)).toEqual(['vehicle-cleanliness']);
  });

  it('gives two aspects of one sentence opposite polarities with the MAMS model', () => {
    const mams = loadModel('mams-acsa');
    expect(predict(mams, 'The waiter was rude but the food was delicious.')).toEqual([
      { category: 'food', polarity: 'positive' },
      { category: 'staff', polarity: 'negative' },
    ]);
    expect(predict(mams, 'Great food at outrageous prices.')).toEqual([
      { category: 'food', polarity: 'positive' },
      { category: 'price', polarity: 'negative' },
    ]);
  });

  it('judges each clause of a sentence with the SemEval model and its sentence encoder', async () => {
    const semeval = loadModel('semeval14-restaurants');
    const text = 'Great food but the service was dreadful!';
    expect(() => predict(semeval, text)).toThrow(/ensureEmbeddings/);
    await ensureEmbeddings(semeval, [text]);
    expect(predict(semeval, text, ['food', 'service'])).toEqual([
      { category: 'food', polarity: 'positive' },
      { category: 'service', polarity: 'negative' },
    ]);
    // In a review, sentences start past offset 0: their clauses must still be the ones encoded.
    const review = 'We came for a birthday. The sushi was fresh, but the waiter ignored us!';
    expect(() => analyzeReview(semeval, review)).toThrow(/ensureEmbeddings/);
    await ensureReviewEmbeddings(semeval, [review]);
    const [, second] = analyzeReview(semeval, review).sentences;
    expect(second!.text).toBe('The sushi was fresh, but the waiter ignored us!');
    expect(second!.aspects.map((a) => a.category)).toEqual(
      expect.arrayContaining(['food', 'service']),
    );
  });

  it('handles Spanish reviews by glossing them into English', () => {
    const analysis = analyzeReview(dealership, 'El servicio fue excelente y muy rápido. Gracias!');
    expect(analysis.sentences[0]!.language).toBe('es');
    expect(analysis.sentences[0]!.aspects.length).toBeGreaterThan(0);
    expect(analysis.sentences[0]!.aspects.every((a) => a.polarity === 'positive')).toBe(true);
  });
});

describe('createReviewAnalyzer', () => {
  it('returns the cached analysis for a text it has seen', () => {
    const analyzer = createReviewAnalyzer(dealership, 2);
    const first = analyzer.analyze('Great staff.');
    expect(analyzer.analyze('Great staff.')).toBe(first);
    analyzer.analyze('Slow service.');
    analyzer.analyze('Dirty car.');
    expect(analyzer.size).toBe(2);
    expect(analyzer.analyze('Great staff.')).not.toBe(first);
    expect(analyzer.analyze('Great staff.')).toEqual(first);
  });
});
