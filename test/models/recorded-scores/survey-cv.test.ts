import { describe, expect, it } from 'vitest';
import { pooledRecall } from '../../../tools/absa/internal/survey-eval.js';
import { runSurveyCv, type SurveyCvReport } from '../../../tools/absa/internal/survey-cv.js';
import { recordedScores } from './check.js';

function recorded(): SurveyCvReport {
  const stored = (recordedScores().dealership as Record<string, unknown> | undefined)?.surveyCv;
  expect(stored, 'no recorded surveyCv for dealership').toBeDefined();
  return stored as SurveyCvReport;
}

describe('recorded survey recall of every comment (absa survey-cv)', () => {
  it('pools the recorded quarters: every comment once, the counts summed', () => {
    const { quarters, pooled } = recorded();
    expect(quarters.map((q) => q.quarter)).toEqual([0, 1, 2, 3]);
    expect(pooled.overall).toEqual(pooledRecall(quarters.map((q) => q.survey.overall)));
    expect(pooled.overall.comments).toBeGreaterThan(5800);
  });

  it('match a fresh training without quarter 1 and its scores', async () => {
    // One of the four trainings (about 80 s): the recorded run is reproducible quarter by quarter.
    const fresh = await runSurveyCv([1]);
    expect(fresh.quarters[0]).toEqual(recorded().quarters.find((q) => q.quarter === 1));
  });
});
