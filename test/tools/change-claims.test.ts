import { describe, expect, it } from 'vitest';
import { changeClaims } from '../../tools/absa/internal/change-claims.js';
import { runTool } from '../helpers/tools.js';

describe('absa change-claims', { timeout: 120_000 }, () => {
  it("sets each change the insights claim on a generated sample against the generator's plan", async () => {
    // Seed 10's sample of 1,800 reviews: the staffing change shows, and nothing else passes
    // Holm's adjustment.
    const report = await changeClaims([10], 1800);
    expect(report.samples).toHaveLength(1);
    expect(report.samples[0]!.claims).toEqual([
      expect.objectContaining({ aspect: 'wait-time', direction: 'worse', planned: true }),
    ]);
    const [claim] = report.samples[0]!.claims;
    expect(claim!.adjustedPValue).toBeCloseTo(claim!.pValue * report.samples[0]!.tested!, 4);
    expect(report).toMatchObject({
      withFalseClaim: 0,
      claims: 1,
      falseClaims: 0,
      waitTimeWorse: 1,
    });
  });

  it('refuses a count out of range with a usage error', () => {
    const run = runTool('absa/cli', ['change-claims', '--count', '0']);
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('--count must be an integer from 1 to 1000000');
  });
});
