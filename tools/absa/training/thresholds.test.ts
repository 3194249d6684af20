import { describe, expect, it } from 'vitest';
import { chooseThresholds, thresholdChoice, type ScoredSentence } from './thresholds.js';

// Category 0 is under-confident: its gold sentences score 0.42, its others 0.1. Category 1 is
// over-confident: two sentences without it score 0.58, its gold ones 0.9.
function fold(): ScoredSentence[] {
  return [
    { gold: [0], probabilities: [0.42, 0.1] },
    { gold: [0], probabilities: [0.42, 0.1] },
    { gold: [], probabilities: [0.1, 0.58] },
    { gold: [], probabilities: [0.1, 0.58] },
    { gold: [1], probabilities: [0.1, 0.9] },
    { gold: [1], probabilities: [0.1, 0.9] },
  ];
}

describe('chooseThresholds', () => {
  it('moves each category to the grid value that raises micro F1, and only then', () => {
    expect(chooseThresholds(fold(), 2, 0.5)).toEqual([0.4, 0.6]);
    // Nothing to gain: probabilities already on the right side of 0.5 stay at the base.
    const clean = [
      { gold: [0], probabilities: [0.9, 0.1] },
      { gold: [1], probabilities: [0.1, 0.9] },
    ];
    expect(chooseThresholds(clean, 2, 0.5)).toEqual([0.5, 0.5]);
  });
});

describe('thresholdChoice', () => {
  it('scores each shrink on held-out folds and applies the one it is given', () => {
    const choice = thresholdChoice([[fold(), fold(), fold()]], ['a', 'b'], 0.5, 1);
    expect(choice.trials.map((t) => t.shrink)).toEqual([0, 0.25, 0.5, 0.75, 1]);
    // At 0.5, category 1's two false finds per fold: precision 2/4; chosen freely, 4/4.
    expect(choice.trials[0]).toEqual({ shrink: 0, nestedF1: 50, nestedPrecision: 50 });
    expect(choice.trials[4]).toEqual({ shrink: 1, nestedF1: 100, nestedPrecision: 100 });
    expect(choice.shrink).toBe(1);
    expect(choice.repeats).toBe(1);
    expect(choice.thresholds).toEqual({ a: 0.4, b: 0.6 });
    const quarter = thresholdChoice([[fold(), fold(), fold()]], ['a', 'b'], 0.5, 0.25);
    expect(quarter.trials).toEqual(choice.trials);
    expect(quarter.thresholds).toEqual({ a: 0.475, b: 0.525 });
  });

  it('shows what a shrink keeps when the free choice costs precision on held-out folds', () => {
    // Lowering category 0 to 0.3 finds its gold sentences in the first two folds, but in the third
    // the same scores belong to sentences without it.
    const noisy = (wrong: boolean): ScoredSentence[] => [
      { gold: wrong ? [] : [0], probabilities: [0.32, 0.1] },
      { gold: wrong ? [] : [0], probabilities: [0.32, 0.1] },
      { gold: [0], probabilities: [0.9, 0.1] },
      { gold: [1], probabilities: [0.1, 0.9] },
    ];
    const choice = thresholdChoice(
      [[noisy(false), noisy(false), noisy(true)]],
      ['a', 'b'],
      0.5,
      0.25,
    );
    const precision = choice.trials.map((t) => t.nestedPrecision);
    // Free: 0.3 lets the third fold's two wrong sentences in; shrunk, the threshold stays above 0.32.
    expect(precision).toEqual([100, 100, 100, 100, 83.33]);
    expect(choice.thresholds).toEqual({ a: 0.45, b: 0.5 });
  });

  it('chooses on every repeat pooled, so the luck of one split does not decide', () => {
    // Category 0's gold sentences score 0.42 in one split and 0.6 in the other two (their folds'
    // models differ); a sentence without it scores 0.42 in every split. Chosen on the first split
    // alone, 0.4 pays (2 more found for 1 wrong); pooled, 2 more found for 3 wrong does not.
    const split = (lucky: boolean): ScoredSentence[][] => [
      [
        { gold: [0], probabilities: [lucky ? 0.42 : 0.6, 0.1] },
        { gold: [0], probabilities: [lucky ? 0.42 : 0.6, 0.1] },
        { gold: [], probabilities: [0.42, 0.1] },
        { gold: [1], probabilities: [0.1, 0.9] },
      ],
    ];
    expect(thresholdChoice([split(true)], ['a', 'b'], 0.5, 1).thresholds.a).toBe(0.4);
    const pooled = thresholdChoice([split(true), split(false), split(false)], ['a', 'b'], 0.5, 1);
    expect(pooled.repeats).toBe(3);
    expect(pooled.thresholds.a).toBe(0.5);
  });
});
