import { describe, expect, it } from 'vitest';
import { runFolds } from '../../tools/absa/internal/cv-folds.js';
import { SEED } from '../../tools/absa/training/index.js';
import { recordedScores } from './recorded-scores/check.js';

describe('absa cv fold threads', () => {
  // No timeout of its own: two dealership folds at once take minutes, more on a busy machine.
  it('give each fold the figures of the recorded one-process run, in task order', async () => {
    const recorded = recordedScores().dealership?.['10-fold']?.crossValidation.perFold;
    expect(recorded, 'no recorded 10-fold figures for dealership').toBeDefined();
    console.log('dealership: training folds 1 and 0 in two threads (minutes)');
    // Given out of order, so that an answer put in the wrong place shows.
    const tasks = [1, 0].map((fold) => ({ seed: SEED, fold }));
    const outcomes = await runFolds('dealership', 10, tasks, 2);
    expect(outcomes.map((o) => o.scores)).toEqual([recorded![1], recorded![0]]);
    // The held-out probabilities the threshold choice pools: one per fold sentence.
    for (const o of outcomes) {
      expect(o.scored!.length).toBeGreaterThan(10);
      expect(o.scored![0]!.probabilities.length).toBeGreaterThan(5);
    }
  });

  it('reports a fold that fails instead of hanging', async () => {
    const tasks = [{ seed: SEED, fold: 10 }];
    await expect(runFolds('dealership', 10, tasks, 1)).rejects.toThrow(/no fold 10 of 10/);
  });
});
