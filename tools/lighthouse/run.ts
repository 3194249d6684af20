import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, ROOT, waitFor } from '../bench/harness.js';
import { parseCommandLine, printUsage, runCommandLine, usageError } from '../../src/cli.js';
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from '../chromium.js';

/**
 * `npm run lighthouse`: starts the built service on the sample dealership, runs Lighthouse 12
 * (its CLI, with Debian's Chromium through CHROME_PATH) on `/` and `/insights` with the default
 * mobile settings, prints the four category scores and exits 1 when one is below
 * LIGHTHOUSE_MIN (default 95). A page below it, or whose run Lighthouse could not finish, is run
 * again, up to LIGHTHOUSE_RUNS times (default 3; a busy machine slows the simulated load), and
 * the best run counts. Nothing is downloaded.
 */
const PATHS = ['/', '/insights'];
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;
const MIN = Number(process.env.LIGHTHOUSE_MIN ?? 95);
/** Performance depends on the machine's load at the moment: a page gets up to this many runs. */
const RUNS = Number(process.env.LIGHTHOUSE_RUNS ?? 3);
const CHROME = CHROMIUM_PATH;
const PERF_METRICS = [
  'first-contentful-paint',
  'largest-contentful-paint',
  'total-blocking-time',
  'speed-index',
];
const FLAGS = CHROMIUM_FLAGS.join(' ');

function lighthouse(url: string, out: string): Record<string, number> {
  const run = spawnSync(
    process.execPath,
    [
      join(ROOT, 'node_modules/lighthouse/cli/index.js'),
      url,
      '--output=json',
      `--output-path=${out}`,
      `--only-categories=${CATEGORIES.join(',')}`,
      `--chrome-flags=${FLAGS}`,
      '--quiet',
    ],
    { env: { ...process.env, CHROME_PATH: CHROME }, stdio: ['ignore', 'inherit', 'inherit'] },
  );
  if (run.status !== 0) throw new Error(`lighthouse failed on ${url} (exit ${run.status})`);
  const report = JSON.parse(readFileSync(out, 'utf8')) as {
    categories: Record<string, { score: number | null }>;
    audits: Record<
      string,
      { score: number | null; title: string; scoreDisplayMode: string; numericValue?: number }
    >;
  };
  const failing = Object.entries(report.audits)
    .filter(([, a]) => a.scoreDisplayMode === 'binary' && a.score === 0)
    .map(([id]) => id);
  if (failing.length) console.log(`  ${url}: failing audits: ${failing.join(', ')}`);
  if ((report.categories.performance?.score ?? 0) * 100 < MIN) {
    // Which metric cost the points: the next engineer starts from here.
    const metrics = PERF_METRICS.map(
      (id) => `${id} ${Math.round(report.audits[id]?.numericValue ?? NaN)}`,
    );
    console.log(`  ${url}: performance metrics (ms): ${metrics.join(', ')}`);
  }
  return Object.fromEntries(
    CATEGORIES.map((c) => [c, Math.round((report.categories[c]?.score ?? 0) * 100)]),
  );
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'lighthouse-'));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [join(ROOT, 'dist/src/main.js')], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      BASE_URL: url,
      DATABASE_URL: `sqlite:${join(dir, 'reviews.db')}`,
      SAMPLE_DATA: 'on',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  let failed = false;
  try {
    await waitFor(`${url}/healthz`);
    console.log(
      `| page | ${CATEGORIES.join(' | ')} |\n|---|${CATEGORIES.map(() => '---').join('|')}|`,
    );
    for (const path of PATHS) {
      let scores: Record<string, number> | null = null;
      let run = 0;
      let error: unknown = null;
      const below = () => CATEGORIES.some((c) => (scores?.[c] ?? 0) < MIN);
      while (run < RUNS && (run === 0 || below())) {
        run++;
        let next: Record<string, number>;
        try {
          next = lighthouse(`${url}${path}`, join(dir, 'report.json'));
        } catch (err) {
          // Lighthouse itself sometimes fails on a busy machine (NO_NAVSTART: the trace of the
          // page load was not recorded); that run counts as one of the page's runs.
          error = err;
          console.error(`  ${path}: run ${run} of ${RUNS}: ${(err as Error).message}`);
          continue;
        }
        const sum = (s: Record<string, number>) => Object.values(s).reduce((a, b) => a + b);
        if (!scores || sum(next) > sum(scores)) scores = next;
      }
      if (!scores) throw error;
      console.log(
        `| ${path} | ${CATEGORIES.map((c) => scores![c]).join(' | ')} |${run > 1 ? ` (best of ${run} runs)` : ''}`,
      );
      if (below()) failed = true;
    }
  } finally {
    child.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  }
  if (failed) {
    console.error(`lighthouse: a score is below ${MIN}`);
    process.exit(1);
  }
}

const USAGE = `Usage: npm run lighthouse

Starts the built service on the sample dealership, runs Lighthouse 12 with Debian's Chromium
(${CHROME}) on ${PATHS.join(' and ')} and prints the four category scores; exits 1 when one is
below LIGHTHOUSE_MIN (default 95). A page below it runs again, up to LIGHTHOUSE_RUNS times
(default 3), and the best run counts.

Options:
  -h, --help   this text`;

const CLI = { name: 'lighthouse', usage: USAGE };

const code = await runCommandLine(CLI, async () => {
  const args = parseCommandLine(process.argv.slice(2), {});
  if (args === null) return printUsage(CLI);
  if (args.positionals.length > 0) throw usageError('takes no arguments');
  await main();
  return 0;
});
process.exit(code);
