import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { metricsPath } from './absa-cv.js';
import { runProbesEval, type ProbesReport } from './probes-eval.js';

describe('the scheduling and staff probes', () => {
  it('score the shipped dealership model as recorded in models/metrics.json', () => {
    const all = JSON.parse(readFileSync(metricsPath(), 'utf8')) as Record<
      string,
      Record<string, unknown>
    >;
    const reports = runProbesEval(false);
    for (const [figure, report] of Object.entries(reports)) {
      const recorded = all.dealership?.[figure] as ProbesReport | undefined;
      expect(recorded, 'run npm run -s absa -- probes --record').toBeDefined();
      expect(report).toEqual(recorded);
      // Every label is counted once: found or missed, and a found one right or misread.
      expect(report.polarityRight + report.misses.length).toBe(report.labels);
    }
  });
});
