import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/tools.js';

/** `dealer-reviews <command>`: the operator's commands. */
const COMMANDS = [
  'serve',
  'import',
  'sync',
  'remove',
  'hidden',
  'reset',
  'backup',
  'migrate-store',
  'insights',
  'absa',
];

/**
 * The offline tools with a command line (`tools/<name>.ts`, run as `dist/tools/<name>.js`). The
 * test below finds every file of `tools/` that reads `process.argv`, so a new tool cannot be
 * left out of this list.
 */
const TOOLS = [
  'absa/bench',
  'absa/build-word-clusters',
  'absa/build-word-vectors',
  'absa/cli',
  'absa/train',
  'bench/import',
  'bench/run',
  'fuzz/run',
  'lighthouse/run',
  'mentions/eval',
  'metrics/run',
  'sample/cli',
];

/** Files of `tools/` that read `process.argv` but are children of a tool, not commands. */
const CHILDREN = ['bench/websub-subscriber'];

function run(script: string, args: string[]) {
  return spawnSync(process.execPath, [join(ROOT, 'dist', script), ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 60_000,
  });
}

function toolsReadingArgv(dir = join(ROOT, 'tools')): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) found.push(...toolsReadingArgv(path));
    else if (
      entry.name.endsWith('.ts') &&
      !entry.name.endsWith('.test.ts') &&
      readFileSync(path, 'utf8').includes('process.argv')
    ) {
      found.push(relative(join(ROOT, 'tools'), path).replace(/\.ts$/, ''));
    }
  }
  return found.sort();
}

describe('every command line answers --help', () => {
  it('dealer-reviews --help lists the commands and exits 0', () => {
    const r = run('src/bin.js', ['--help']);
    expect(r.status, r.stderr).toBe(0);
    for (const command of COMMANDS) expect(r.stdout).toContain(`  ${command} `);
    expect(r.stderr).toBe('');
  });

  it('runs as `npx dealer-reviews` in the checkout, as the README says', () => {
    const r = spawnSync('npx', ['--no', '--', 'dealer-reviews', '--help'], {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(r.status, r.stderr).toBe(0);
    for (const command of COMMANDS) expect(r.stdout).toContain(`  ${command} `);
  });

  it.each(COMMANDS)('dealer-reviews %s --help prints its usage and exits 0', (command) => {
    const r = run('src/bin.js', [command, '--help']);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^Usage: /);
    expect(r.stderr).toBe('');
  });

  it('the list of tools holds every tool that reads a command line', () => {
    expect(toolsReadingArgv()).toEqual([...TOOLS, ...CHILDREN].sort());
  });

  it.each(TOOLS)('tools/%s --help prints its usage and exits 0, doing nothing else', (tool) => {
    const r = run(`tools/${tool}.js`, ['--help']);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^Usage: /i);
    expect(r.stderr).toBe('');
  });

  it.each(['bench/run', 'bench/import', 'lighthouse/run', 'absa/cli', 'metrics/run'])(
    'tools/%s refuses an unknown argument in one line and the usage, exit 2',
    (tool) => {
      const r = run(`tools/${tool}.js`, ['--no-such-option']);
      expect(r.status).toBe(2);
      expect(r.stderr.split('\n')[0]).toMatch(/^[\w:-]+: /);
      expect(r.stderr).toContain('Usage: ');
      expect(r.stderr).not.toMatch(/\n\s+at /);
    },
  );
});
