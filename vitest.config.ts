import { availableParallelism } from 'node:os';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { defineConfig } from 'vitest/config';

/**
 * Test files that run for minutes (each reruns a fold of a benchmark cross-validation, or trains a
 * model twice), longest first. They start before everything else so that the other worker gets
 * through the rest of the suite meanwhile: on the 2-core machines CI runs on, `npm test` takes
 * about half the time it took with these checks in one file on one worker.
 */
const LONG_RUNNING = [
  'test/absa/recorded-scores/mams-acsa.test.ts',
  'test/absa/recorded-scores/semeval14-restaurants.test.ts',
  'test/absa/recorded-scores/dealership.test.ts',
  'test/absa/train-determinism.test.ts',
];

class LongRunningFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (file: TestSpecification): number => {
      const i = LONG_RUNNING.findIndex((path) => file.moduleId.endsWith(path));
      return i < 0 ? LONG_RUNNING.length : i;
    };
    // Array.prototype.sort is stable: the rest keep the default order.
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Vitest's default leaves one core free, which on a 2-core machine is a single worker.
    maxWorkers: availableParallelism(),
    sequence: { sequencer: LongRunningFirst },
  },
});
