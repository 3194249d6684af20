import { describe, expect, it } from 'vitest';
import { POLARITIES } from '../../../src/insights/absa/types.js';
import { balancePolarity } from './polarity-balance.js';

const POS = POLARITIES.indexOf('positive');
const NEG = POLARITIES.indexOf('negative');
const NEU = POLARITIES.indexOf('neutral');

describe('balancePolarity', () => {
  // Category 0: 6 negatives against 1 positive (ratio 6, capped at 4); category 1: 2 to 1 (under
  // the ratio of 3, left alone); a transfer example (not in-domain) is neither counted nor reweighed.
  const categories = [0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1];
  const labels = [NEG, NEG, NEG, NEG, NEG, NEG, POS, POS, NEU, NEG, NEG, POS];
  const inDomain = [true, true, true, true, true, true, true, false, true, true, true, true];

  it('weighs the rarer side of an unbalanced aspect by the ratio, at most the cap', () => {
    const weights = labels.map(() => 1);
    balancePolarity(categories, inDomain, labels, weights, { cap: 4, minRatio: 3 });
    expect(weights).toEqual([1, 1, 1, 1, 1, 1, 4, 1, 1, 1, 1, 1]);
  });

  it('uses the ratio itself under the cap, and the weights the examples already have', () => {
    const weights = [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 1, 1, 1, 1, 1, 1];
    balancePolarity(categories, inDomain, labels, weights, { cap: 10, minRatio: 2 });
    // Category 0: 3 against 1, so the positive weighs 3; category 1: 2 against 1, so 2.
    expect(weights).toEqual([0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 3, 1, 1, 1, 1, 2]);
  });
});
