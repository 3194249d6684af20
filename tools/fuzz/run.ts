import { spawn } from 'node:child_process';
import { randomInt } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseCommandLine, printUsage, runCommandLine } from '../../src/cli.js';
import { repoRoot } from '../paths.js';

/**
 * `npm run fuzz [-- <file filter>...]`: the property-based fuzz suite (`test/fuzz`) with many
 * runs per boundary instead of the bounded number `npm test` runs.
 *
 * - `FUZZ_RUNS`: runs per boundary (default 10,000).
 * - `FUZZ_SEED`: the seed (default: a random one, printed so that a failure can be replayed).
 * - `FUZZ_MINUTES`: stop each boundary after that many minutes (its row then says how many runs
 *   it really made); unset, every boundary makes all its runs.
 *
 * The files run in one Vitest invocation (two at a time on two cores, as in `npm test`); each
 * boundary appends its figures to a report file, printed here as a table at the end.
 */

/** One boundary's figures, as `test/fuzz/helpers/settings.ts` writes them. */
interface BoundaryFigures {
  boundary: string;
  asked: number;
  runs: number;
  interrupted: boolean;
  ms: number;
  outcomes: Record<string, number>;
  failed: boolean;
  seed: number;
  path?: string;
  counterexample?: string;
}

function duration(ms: number): string {
  const s = Math.round(ms / 1000);
  return s < 120 ? `${s} s` : `${Math.floor(s / 60)} min ${s % 60} s`;
}

function intEnv(name: string, fallback: number): number {
  const value = process.env[name];
  if (value === undefined || value === '') return fallback;
  if (!/^\d+$/.test(value)) throw new Error(`${name} must be a non-negative integer`);
  return Number(value);
}

const USAGE = `Usage: npm run fuzz [-- <file filter>...]

The property-based fuzz suite (test/fuzz) with many runs per boundary; a filter keeps the files
whose name holds it (search, since, mcp, websub-hub, import, environment).

Environment: FUZZ_RUNS (runs per boundary, default 10000), FUZZ_SEED (default: random, printed),
FUZZ_MINUTES (stop each boundary after that many minutes).

Options:
  -h, --help   this text`;

const CLI = { name: 'fuzz', usage: USAGE };

async function main(filters: readonly string[]): Promise<number> {
  const root = repoRoot();
  const files = readdirSync(join(root, 'test', 'fuzz'))
    .filter((f) => f.endsWith('.test.ts'))
    .filter((f) => filters.length === 0 || filters.some((x) => f.includes(x)))
    .map((f) => `test/fuzz/${f}`);
  if (files.length === 0) {
    console.error(`fuzz: no file of test/fuzz matches ${filters.join(', ')}`);
    return 2;
  }
  const runs = intEnv('FUZZ_RUNS', 10_000);
  const seed = intEnv('FUZZ_SEED', randomInt(1, 2 ** 31 - 1));
  const dir = mkdtempSync(join(tmpdir(), 'fuzz-report-'));
  const report = join(dir, 'figures.jsonl');
  const minutes = process.env.FUZZ_MINUTES;
  console.log(
    `fuzz: ${runs} runs per boundary, FUZZ_SEED=${seed}${minutes ? `, at most ${minutes} min per boundary` : ''}; ${files.join(' ')}`,
  );
  const started = performance.now();
  const code = await new Promise<number>((resolve) => {
    const child = spawn(
      process.execPath,
      [join(root, 'node_modules', 'vitest', 'vitest.mjs'), 'run', '--project', 'slow', ...files],
      {
        cwd: root,
        stdio: 'inherit',
        env: {
          ...process.env,
          FUZZ_RUNS: String(runs),
          FUZZ_SEED: String(seed),
          FUZZ_REPORT: report,
        },
      },
    );
    child.on('close', (c) => resolve(c ?? 1));
  });
  const wall = performance.now() - started;
  const figures: BoundaryFigures[] = existsSync(report)
    ? readFileSync(report, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as BoundaryFigures)
    : [];
  rmSync(dir, { recursive: true, force: true });

  console.log(`\n| boundary | runs | failures | wall time | runs/s | outcomes |`);
  console.log('|---|---|---|---|---|---|');
  for (const f of figures) {
    const runsCell = f.interrupted ? `${f.runs} of ${f.asked} (time limit)` : `${f.runs}`;
    const outcomes = Object.entries(f.outcomes)
      .map(([k, v]) => `${k}: ${v}`)
      .join(', ');
    const rate = f.ms > 0 ? (f.runs / (f.ms / 1000)).toFixed(1) : '-';
    console.log(
      `| ${f.boundary} | ${runsCell} | ${f.failed ? 1 : 0} | ${duration(f.ms)} | ${rate} | ${outcomes} |`,
    );
  }
  console.log(`\nFUZZ_SEED=${seed}, ${figures.length} boundaries, wall time ${duration(wall)}.`);
  for (const f of figures.filter((x) => x.failed)) {
    console.log(
      `\n${f.boundary} failed; replay: FUZZ_RUNS=${f.asked} FUZZ_SEED=${f.seed} FUZZ_PATH=${f.path} npx vitest run --project slow test/fuzz/<its file>\nCounterexample: ${f.counterexample}`,
    );
  }
  return code !== 0 || figures.some((f) => f.failed) ? 1 : 0;
}

const code = await runCommandLine(CLI, async () => {
  const args = parseCommandLine(process.argv.slice(2), {});
  if (args === null) return printUsage(CLI);
  return main(args.positionals);
});
process.exit(code);
