import { describe, expect, it } from 'vitest';
import { recordedScores } from './check.js';

describe('recorded benchmark scores', () => {
  it('records the full cross-validation of each model with its command', () => {
    const recorded = recordedScores();
    for (const model of ['semeval14-restaurants', 'mams-acsa', 'dealership']) {
      const full = recorded[model]?.['10-fold'];
      expect(full, `no full 10-fold figures for ${model}`).toBeDefined();
      expect(full!.crossValidation.foldsRun).toBe(10);
      expect(full!.command).toContain(`--model ${model}`);
    }
  });
});
