import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { cvKey, metricsPath, runCv, type CvReport } from '../../scripts/internal/absa-cv.js';
import type { ModelName } from '../../src/insights/absa/index.js';

const recorded = JSON.parse(readFileSync(metricsPath(), 'utf8')) as Record<
  string,
  Record<string, CvReport>
>;

// A reduced but fixed configuration: the first fold of the 10-fold split (the full runs take
// minutes; the MAMS fold, networks included, about six on a free core). Its figures are recorded in
// models/metrics.json next to the full ones.
const REDUCED: [ModelName, number, number][] = [
  ['semeval14-restaurants', 10, 1],
  ['mams-acsa', 10, 1],
  ['dealership', 10, 1],
];

describe('recorded benchmark scores', () => {
  for (const [model, folds, limit] of REDUCED) {
    it(
      `match a fresh run of the scorer for ${model} (${cvKey(folds, limit)})`,
      { timeout: 1_500_000 },
      async () => {
        const stored = recorded[model]?.[cvKey(folds, limit)];
        expect(stored, `no recorded figures for ${model}`).toBeDefined();
        const fresh = await runCv(model, folds, limit, false);
        expect(fresh.crossValidation).toEqual(stored!.crossValidation);
        expect(fresh.testSplit).toEqual(stored!.testSplit);
        expect(fresh.challengeSet).toEqual(stored!.challengeSet);
      },
    );
  }

  it('records the full cross-validation of each model with its command', () => {
    for (const model of ['semeval14-restaurants', 'mams-acsa', 'dealership']) {
      const full = recorded[model]?.['10-fold'];
      expect(full, `no full 10-fold figures for ${model}`).toBeDefined();
      expect(full!.crossValidation.foldsRun).toBe(10);
      expect(full!.command).toContain(`--model ${model}`);
    }
  });
});
