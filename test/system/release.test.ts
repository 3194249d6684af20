/**
 * Issue 31: the production install. The release tarball `npm pack` makes installs with
 * `npm install --omit=dev` into an empty folder (no development dependency: dist/ is in the
 * tarball) and runs with `npx dealer-reviews serve`; with NODE_ENV=production an empty store stays
 * empty; SIGTERM or SIGINT to npx stops the service and leaves nothing behind (npm's `sh -c` dies
 * of the signal without passing it on: the service notices it lost its parent); and the systemd
 * unit of deploy/ passes `systemd-analyze verify` against the installed release.
 *
 * The install uses the local npm cache (`--prefer-offline`: filled by the clone's `npm ci`), so it
 * needs the registry only for a package the cache lacks. better-sqlite3 builds its native module
 * from source when its prebuilt binary cannot be downloaded, which takes minutes of CPU.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { gone, killTree, logged, startTree, type Started } from './stopping.js';

const ROOT = join(import.meta.dirname, '..', '..');
const VERSION = (
  JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }
).version;
/** A bound that keeps the tarball small: it was 2.2 MB when this test was written. */
const MAX_TARBALL_BYTES = 4 * 1024 * 1024;

const dir = mkdtempSync(join(tmpdir(), 'release-'));
/** The installed release, laid out as docs/deployment.md lays it out. */
const release = join(dir, 'opt', 'dealer-reviews', 'releases', VERSION);
let packed: { filename: string; size: number; files: { path: string }[] };
let running: Started | null = null;

beforeAll(() => {
  // The global setup built dist/ from these sources: pack it as it is (`prepack` would build again).
  const out = execFileSync(
    'npm',
    ['pack', '--ignore-scripts', '--json', '--pack-destination', dir],
    { cwd: ROOT, encoding: 'utf8' },
  );
  packed = (JSON.parse(out) as (typeof packed)[])[0]!;
  mkdirSync(release, { recursive: true });
  const install = spawnSync(
    'npm',
    [
      'install',
      ...['--prefix', release, '--omit=dev', '--prefer-offline', '--no-audit', '--no-fund'],
      join(dir, packed.filename),
    ],
    // Not the checkout's npm settings: an operator's machine has none of them.
    { cwd: dir, encoding: 'utf8', env: cleanEnv() },
  );
  if (install.status !== 0) throw new Error(`npm install failed:\n${install.stderr}`);
}, 900_000);

afterEach(() => {
  if (running) killTree(running);
  running = null;
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * The environment without what the test run added to it: `npm run`'s variables (an operator's
 * machine has none of them) and vitest's BASE_URL ("/", which the service rightly refuses).
 */
function cleanEnv(): Record<string, string> {
  return Object.fromEntries(
    Object.entries(process.env).filter(
      (e): e is [string, string] =>
        !e[0].startsWith('npm_') && e[0] !== 'BASE_URL' && e[1] !== undefined,
    ),
  );
}

describe('the release tarball', () => {
  it('ships the compiled service, the models and sample it runs with, and nothing for tests or tools', () => {
    const paths = packed.files.map((f) => f.path);
    for (const needed of [
      'package.json',
      'bin/dealer-reviews',
      'dist/src/main.js',
      'dist/src/bin.js',
      'models/dealership.json',
      'models/word-clusters.json',
      'sample/dealership.json',
      'deploy/dealer-reviews.service',
      'docs/deployment.md',
    ]) {
      expect(paths).toContain(needed);
    }
    const unwanted = paths.filter(
      (p) =>
        /^(src|test|tools|dist\/tools|dist\/test|conformance|data-labels|examples)\//.test(p) ||
        /\.(map|ts)$/.test(p) ||
        /\.test\.js$/.test(p) ||
        p === 'dist/.tsbuildinfo' ||
        (p.startsWith('models/') && !/^models\/(dealership|word-clusters|metrics)\.json$/.test(p)),
    );
    expect(unwanted).toEqual([]);
    console.info(`release tarball: ${packed.filename}, ${packed.size} bytes`);
    expect(packed.size).toBeLessThan(MAX_TARBALL_BYTES);
  });

  it('installs without a development dependency', () => {
    const modules = join(release, 'node_modules');
    expect(existsSync(join(modules, 'dealer-reviews', 'dist', 'src', 'main.js'))).toBe(true);
    expect(existsSync(join(modules, 'better-sqlite3'))).toBe(true);
    for (const dev of ['typescript', 'vitest', 'eslint', '@modelcontextprotocol/client']) {
      expect(existsSync(join(modules, dev))).toBe(false);
    }
  });
});

describe('npx dealer-reviews serve, from the installed release', () => {
  const serve = (env: Record<string, string>) =>
    startTree('npx', ['--no', 'dealer-reviews', 'serve'], {
      cwd: release,
      baseEnv: cleanEnv(),
      env,
    });

  it('with NODE_ENV=production starts an empty store empty, and stops on SIGTERM to npx', async () => {
    const db = `sqlite:${join(dir, 'production.db')}`;
    const s = (running = await serve({ NODE_ENV: 'production', DATABASE_URL: db }));
    const health = (await (await fetch(`${s.url}/healthz`)).json()) as { reviews: number };
    expect(health.reviews).toBe(0);
    s.child.kill('SIGTERM');
    await gone(s);
    // npm's shell died of the signal; the service stopped by itself, gracefully.
    expect(logged(s, 'stopped')).toHaveLength(1);
  });

  it('with SAMPLE_DATA=on loads the sample, and stops on Ctrl-C (SIGINT to the group)', async () => {
    const db = `sqlite:${join(dir, 'sample.db')}`;
    const s = (running = await serve({
      NODE_ENV: 'production',
      SAMPLE_DATA: 'on',
      DATABASE_URL: db,
    }));
    const health = (await (await fetch(`${s.url}/healthz`)).json()) as { reviews: number };
    expect(health.reviews).toBe(1800);
    process.kill(-s.child.pid!, 'SIGINT');
    await gone(s);
    expect(logged(s, 'stopped')).toHaveLength(1);
  });

  it('refuses a NODE_ENV it does not know, naming it (a typo would load the sample)', () => {
    const r = spawnSync('npx', ['--no', 'dealer-reviews', 'serve'], {
      cwd: release,
      encoding: 'utf8',
      env: { ...cleanEnv(), NODE_ENV: 'prodution', PORT: '0' },
    });
    expect(r.status).toBe(78);
    expect(r.stderr).toMatch(
      /invalid NODE_ENV="prodution": must be production, development or test/,
    );
  });
});

describe('the systemd unit (deploy/dealer-reviews.service)', () => {
  it('passes systemd-analyze verify, run from the installed release', () => {
    const unit = readFileSync(join(ROOT, 'deploy', 'dealer-reviews.service'), 'utf8');
    expect(unit).toContain(
      'ExecStart=/opt/dealer-reviews/current/node_modules/.bin/dealer-reviews serve',
    );
    // Only the release's folder differs from /opt/dealer-reviews/current: verify checks that the
    // command exists and is executable.
    const copy = join(dir, 'dealer-reviews.service');
    writeFileSync(copy, unit.replaceAll('/opt/dealer-reviews/current', release));
    const r = spawnSync('systemd-analyze', ['verify', copy], { encoding: 'utf8' });
    expect(r.error, 'systemd-analyze is missing: apt-get install systemd').toBeUndefined();
    expect(`${r.stdout}${r.stderr}`).toBe('');
    expect(r.status).toBe(0);
  });
});
