import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';

/**
 * Global setup of the test projects that run compiled code (the service as its own process, the
 * CLIs): compiles `src` and `tools` to `dist/` first, so no test runs against stale output, and
 * again before each rerun in watch mode (`npx vitest`). The build is incremental
 * (`dist/.tsbuildinfo`), so it costs a few seconds when nothing changed.
 */
export function setup(project: TestProject): void {
  // `npm test` runs two projects (`unit`, `e2e`) that both name this setup, in the same process:
  // one build serves both (a second, with nothing changed, cost 5 s of CPU before any test).
  const state = globalThis as { [BUILT]?: boolean };
  if (!state[BUILT]) {
    build();
    state[BUILT] = true;
  }
  project.onTestsRerun(build);
}

/** Set on the process once the first project's setup has built `dist/`. */
const BUILT = Symbol.for('dealer-reviews:test-build');

function build(): void {
  // The package's own build script, so that the tests run what `npm install` makes: tsc leaves
  // its build info untouched when nothing changed (`dealer-reviews` compares its time with the
  // sources' to warn about a stale build), and `dist/src/bin.js` is made executable (`npx
  // dealer-reviews` runs it as it is).
  execFileSync('npm', ['run', '-s', 'build'], {
    cwd: join(import.meta.dirname, '..', '..'),
    stdio: 'inherit',
  });
}
