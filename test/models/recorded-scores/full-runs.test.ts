import { describe, expect, it } from 'vitest';
import { MODEL_NAMES } from '../../../src/insights/absa/index.js';
import { trainConfig } from '../../../tools/absa/training/index.js';
import { recordedScores } from './check.js';

describe('recorded benchmark scores', () => {
  it('records the full cross-validation of each model with its command', () => {
    const recorded = recordedScores();
    for (const model of MODEL_NAMES) {
      const full = recorded[model]?.['10-fold'];
      expect(full, `no full 10-fold figures for ${model}`).toBeDefined();
      expect(full!.crossValidation.foldsRun).toBe(10);
      expect(full!.command).toContain(`--model ${model}`);
    }
  });

  it('trains the dealership model with the thresholds its recorded cross-validation chose', () => {
    const choice = recordedScores().dealership?.['10-fold']?.thresholdChoice;
    expect(choice, 'no recorded threshold choice').toBeDefined();
    const config = trainConfig('dealership');
    const shipped = Object.fromEntries(
      config.categories.map((c) => [c.id, config.thresholds?.[c.id] ?? config.threshold]),
    );
    expect(shipped).toEqual(choice!.thresholds);
  });
});
