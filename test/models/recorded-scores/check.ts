import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { cvKey, metricsPath, runCv, type CvReport } from '../../../tools/absa/internal/absa-cv.js';
import type { ModelName } from '../../../src/insights/absa/index.js';

/** The figures recorded in `models/metrics.json`, by model and fold configuration. */
export function recordedScores(): Record<string, Record<string, CvReport>> {
  return JSON.parse(readFileSync(metricsPath(), 'utf8')) as Record<
    string,
    Record<string, CvReport>
  >;
}

/**
 * Declares the test that reruns the scorer on a reduced but fixed configuration of a model (the
 * first fold of its 10-fold split: the full runs take most of an hour) and compares the fresh
 * figures with the recorded ones. Each model has its own test file so that the three runs, minutes
 * each, can go to different workers.
 */
export function checkRecordedFold(model: ModelName): void {
  const [folds, limit] = [10, 1];
  // No timeout of its own: the models project's holds on a busy machine, where the MAMS fold,
  // beside the other two and a cross-validation, took 1,585 s against the 1,500 s it once had.
  it(`match a fresh run of the scorer for ${model} (${cvKey(folds, limit)})`, async () => {
    const stored = recordedScores()[model]?.[cvKey(folds, limit)];
    expect(stored, `no recorded figures for ${model}`).toBeDefined();
    // Progress: the run takes minutes and prints nothing else meanwhile.
    console.log(`${model}: retraining and scoring the first of ${folds} folds (minutes)`);
    const started = Date.now();
    const fresh = await runCv(model, folds, limit, false);
    console.log(`${model}: scored in ${Math.round((Date.now() - started) / 1000)} s`);
    expect(fresh.crossValidation).toEqual(stored!.crossValidation);
    expect(fresh.testSplit).toEqual(stored!.testSplit);
    expect(fresh.challengeSet).toEqual(stored!.challengeSet);
    expect(fresh.surveyHeldOut).toEqual(stored!.surveyHeldOut);
  });
}
