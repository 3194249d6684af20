import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { metricsPath } from './absa-cv.js';
import { runContrastEval, type ContrastReport } from './contrast-eval.js';

describe('the contrast sentences', () => {
  it('score the shipped MAMS model as recorded in models/metrics.json', () => {
    const all = JSON.parse(readFileSync(metricsPath(), 'utf8')) as Record<
      string,
      Record<string, unknown>
    >;
    const recorded = all['mams-acsa']?.contrastSet as ContrastReport | undefined;
    expect(recorded, 'run npm run -s absa -- contrast --record').toBeDefined();
    expect(runContrastEval(false)).toEqual(recorded);
  });
});
