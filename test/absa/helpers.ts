import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../../src/insights/absa/training/index.js';

/** Path of a compiled script, building the project first when `dist/` is missing or stale. */
export function compiledScript(name: string): string {
  const root = repoRoot();
  const path = join(root, 'dist', 'scripts', `${name}.js`);
  if (!existsSync(path))
    execFileSync('npm', ['run', '-s', 'build'], { cwd: root, stdio: 'inherit' });
  return path;
}

/** Runs a compiled script with `node`, feeding `input` on stdin. */
export function runScript(name: string, args: string[], input = '') {
  return spawnSync(process.execPath, [compiledScript(name), ...args], {
    cwd: repoRoot(),
    input,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
}
