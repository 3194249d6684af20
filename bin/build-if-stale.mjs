#!/usr/bin/env node
// node bin/build-if-stale.mjs <prepare|start>: the `prepare` and `prestart` scripts.
//
// Builds (`npm run build`) only when the compiled service in dist/ is older than its sources, so
// that `npm start` on an up-to-date checkout starts at once instead of compiling for seconds.
// `dist/.tsbuildinfo` is touched by every build (package.json's `build`); a source, a tsconfig or
// a folder of src/ or tools/ (a file added, renamed or deleted) changed since then means stale.
//
// Without TypeScript (`npm ci --omit=dev` in a clone) nothing can be built: `prepare` says so and
// lets the install finish; `start` stops with the way out when there is no build at all. A release
// tarball (`npm pack`) has no src/: it ships dist/, and there is nothing to check.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const mode = process.argv[2];
const stamp = join(root, 'dist', '.tsbuildinfo');
const built = existsSync(join(root, 'dist', 'src', 'main.js')) && existsSync(stamp);

/** The newest modification time of the build's inputs under `dir`: its .ts files and folders. */
function newest(dir) {
  let time = statSync(dir).mtimeMs;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) time = Math.max(time, newest(path));
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts'))
      time = Math.max(time, statSync(path).mtimeMs);
  }
  return time;
}

function stale() {
  if (!built) return true;
  const inputs = ['src', 'tools'].filter((d) => existsSync(join(root, d)));
  const configs = ['tsconfig.json', 'tsconfig.build.json'].filter((f) => existsSync(join(root, f)));
  const sources = Math.max(
    ...inputs.map((d) => newest(join(root, d))),
    ...configs.map((f) => statSync(join(root, f)).mtimeMs),
  );
  return sources > statSync(stamp).mtimeMs;
}

function hasTypeScript() {
  try {
    createRequire(join(root, 'package.json')).resolve('typescript/package.json');
    return true;
  } catch {
    return false;
  }
}

const NO_BUILD = `dealer-reviews: dist/ (the compiled service) is missing and TypeScript is not installed.
A clone installed without its development dependencies (npm ci --omit=dev) cannot build it:
- in production, install the release tarball instead (npm pack, then npm install --omit=dev
  <tarball>; docs/deployment.md);
- for development, run npm ci (with the development dependencies), then npm start.`;

if (mode !== 'prepare' && mode !== 'start') {
  process.stderr.write('usage: node bin/build-if-stale.mjs <prepare|start>\n');
  process.exit(2);
}
if (!existsSync(join(root, 'src'))) {
  // An installed release: dist/ is what it ships.
  if (!built && mode === 'start') {
    process.stderr.write(`${NO_BUILD}\n`);
    process.exit(1);
  }
  process.exit(0);
}
if (!stale()) process.exit(0);
if (!hasTypeScript()) {
  if (mode === 'prepare') {
    process.stderr.write(
      'dealer-reviews: TypeScript is not installed (a production install): dist/ is not built.\n' +
        'The release tarball ships it; see docs/deployment.md.\n',
    );
    process.exit(0);
  }
  if (!built) {
    process.stderr.write(`${NO_BUILD}\n`);
    process.exit(1);
  }
  process.stderr.write(
    'dealer-reviews: src/ is newer than dist/, and TypeScript is not installed to build it; starting the old build\n',
  );
  process.exit(0);
}
// npm tells its scripts where its own CLI is; the build script is the package's (it touches the
// stamp and makes bin.js executable).
const npm = process.env.npm_execpath;
const result = npm
  ? spawnSync(process.execPath, [npm, 'run', '-s', 'build'], { cwd: root, stdio: 'inherit' })
  : spawnSync('npm', ['run', '-s', 'build'], { cwd: root, stdio: 'inherit' });
process.exit(result.status ?? 1);
