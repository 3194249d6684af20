import { execFileSync } from 'node:child_process';
import { utimesSync } from 'node:fs';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';

/**
 * Global setup of the test projects that run compiled code (the service as its own process, the
 * CLIs): compiles `src` and `tools` to `dist/` first, so no test runs against stale output, and
 * again before each rerun in watch mode (`npx vitest`). The build is incremental
 * (`dist/.tsbuildinfo`), so it costs a few seconds when nothing changed.
 */
export function setup(project: TestProject): void {
  build();
  project.onTestsRerun(build);
}

function build(): void {
  const root = join(import.meta.dirname, '..', '..');
  const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
  execFileSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], {
    cwd: root,
    stdio: 'inherit',
  });
  // tsc leaves its build info untouched when nothing changed; `dealer-reviews` compares its time
  // with the sources' to warn about a stale build.
  utimesSync(join(root, 'dist', '.tsbuildinfo'), new Date(), new Date());
}
