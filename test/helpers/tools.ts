import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

/** The repository root. */
export const ROOT = join(import.meta.dirname, '..', '..');

/**
 * Runs a compiled tool (`dist/tools/<name>.js`) with `node`, feeding `input` on stdin. The test
 * projects that use it build the project first (test/setup/build.ts), so it is never stale.
 */
export function runTool(name: string, args: string[], input = '') {
  return spawnSync(process.execPath, [join(ROOT, 'dist', 'tools', `${name}.js`), ...args], {
    cwd: ROOT,
    input,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
}
