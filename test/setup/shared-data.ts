import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

/**
 * Global setup of the model checks: they read the evaluation data in `../shared/data` (never
 * copied into the repository). Without it, one line on stderr says what is needed and the run
 * ends with exit code 1, instead of a failure per test (or a thrown error, which Vitest prints
 * with its stack).
 */
export function setup(): void {
  const dir = resolve(import.meta.dirname, '..', '..', '..', 'shared', 'data');
  const needed = [
    'semeval2014-task4-restaurants',
    'mams-acsa',
    'dealerrater-mckaig',
    'dealer-service-survey-in',
  ];
  const missing = needed.filter((name) => !existsSync(join(dir, name)));
  if (missing.length > 0) {
    process.stderr.write(
      `npm run test:models needs the shared evaluation data in ${dir} (missing: ${missing.join(', ')})\n`,
    );
    process.exit(1);
  }
}
