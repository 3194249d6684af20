import { describe, expect, it } from 'vitest';
import { runSampleEval } from '../../../tools/absa/internal/sample-eval.js';
import { recordedScores } from './check.js';

describe('recorded benchmark scores', () => {
  it('match a fresh reading of the bundled sample against its generator plan (dealership)', () => {
    const stored = recordedScores().dealership?.sampleEval;
    expect(stored, 'no recorded sampleEval for dealership').toBeDefined();
    expect(runSampleEval()).toEqual(stored);
  });
});
