/**
 * `npm run bench:import [-- --count 100000 --formats gbp,gbp-line,gbp-pretty,csv]`: generates a file of N reviews
 * per format, imports it with the real CLI into a fresh SQLite store (after the fixture business
 * profile, so mentions are matched), then imports it again (everything unchanged). Prints wall
 * time and the CLI process's peak RSS for each run. Files and stores go to `.bench/import/`.
 */
import { spawn } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import {
  commandFailed,
  parseCommandLine,
  printUsage,
  runCommandLine,
  usageError,
} from '../../src/cli.js';
import { repoRoot } from '../paths.js';
import { csvChunks, gbpChunks } from './import-data.js';

const ROOT = repoRoot();
const BIN = join(ROOT, 'dist', 'src', 'bin.js');
const BUSINESS = join(ROOT, 'test', 'fixtures', 'business.json');
const OUT = join(ROOT, '.bench', 'import');
const RSS_HOOK =
  "data:text/javascript,process.on('exit',()=>process.stderr.write('\\nmaxrss_kb='+process.resourceUsage().maxRSS+'\\n'))";

interface Run {
  seconds: number;
  peakRssMb: number;
  summary: Record<string, unknown>;
}

async function writeFile(path: string, chunks: Iterable<string>): Promise<void> {
  const out = createWriteStream(path);
  for (const chunk of chunks) {
    if (!out.write(chunk)) await new Promise<void>((r) => out.once('drain', () => r()));
  }
  await new Promise<void>((r, j) => out.end((err?: Error | null) => (err ? j(err) : r())));
}

function runCli(file: string, db: string): Promise<Run> {
  return new Promise((resolvePromise, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(process.execPath, ['--import', RSS_HOOK, BIN, 'import', file, '--json'], {
      env: { ...process.env, DATABASE_URL: `sqlite:${db}` },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      if (code !== 0) return reject(new Error(`import exited ${code}: ${stderr.trim()}`));
      const kb = Number(/maxrss_kb=(\d+)/.exec(stderr)?.[1] ?? Number.NaN);
      const summary = JSON.parse(stdout) as Record<string, unknown>;
      resolvePromise({ seconds, peakRssMb: kb / 1024, summary });
    });
  });
}

const GENERATORS = {
  gbp: (count: number) => gbpChunks(count),
  // The same reviews on one line, and pretty-printed: the import is linear in any layout.
  'gbp-line': (count: number) => gbpChunks(count, 1, 'single-line'),
  'gbp-pretty': (count: number) => gbpChunks(count, 1, 'pretty'),
  csv: (count: number) => csvChunks(count),
} as const;
type BenchFormat = keyof typeof GENERATORS;

async function benchFormat(format: BenchFormat, count: number): Promise<string[]> {
  const file = join(OUT, `${format}-${count}.${format === 'csv' ? 'csv' : 'json'}`);
  const db = join(OUT, `${format}-${count}.db`);
  await writeFile(file, GENERATORS[format](count));
  for (const suffix of ['', '-wal', '-shm']) rmSync(db + suffix, { force: true });
  await runCli(BUSINESS, db);
  const first = await runCli(file, db);
  const again = await runCli(file, db);
  const mb = (statSync(file).size / 1e6).toFixed(1);
  const row = (label: string, r: Run): string =>
    `${format.padEnd(10)} ${String(count).padStart(7)} ${mb.padStart(6)} MB  ${label.padEnd(9)} ` +
    `${r.seconds.toFixed(2).padStart(6)} s  ${r.peakRssMb.toFixed(0).padStart(4)} MB RSS  ` +
    `inserted ${r.summary.inserted} unchanged ${r.summary.unchanged} rejected ${(r.summary.rejected as unknown[]).length}`;
  return [row('import', first), row('re-import', again)];
}

const USAGE = `Usage: npm run bench:import [-- --count 100000 --formats gbp,csv]

Generates a file of N reviews per format, imports it with the real CLI into a fresh SQLite store,
then imports it again (everything unchanged); prints wall time and the CLI's peak RSS per run.
Files and stores go to .bench/import/.

Options:
  --count <n>        reviews per format (default 100000)
  --formats <list>   ${Object.keys(GENERATORS).join(',')} (default: all)
  -h, --help         this text`;

const CLI = { name: 'bench:import', usage: USAGE };

process.exitCode = await runCommandLine(CLI, async () => {
  const args = parseCommandLine(process.argv.slice(2), {
    count: { type: 'string', default: '100000' },
    formats: { type: 'string', default: Object.keys(GENERATORS).join(',') },
  });
  if (args === null) return printUsage(CLI);
  if (args.positionals.length > 0) throw usageError('takes options only');
  const count = Number(args.values.count);
  if (!Number.isInteger(count) || count < 1) throw usageError('--count must be a positive integer');
  const formats = args.values.formats.split(',');
  const unknown = formats.filter((f) => !Object.hasOwn(GENERATORS, f));
  if (unknown.length > 0) throw usageError(`unknown format: ${unknown.join(', ')}`);
  if (!existsSync(BIN)) throw commandFailed(`${BIN} is missing: run npm run build`);
  mkdirSync(OUT, { recursive: true });
  console.log(`node ${process.version}, ${count} reviews per format`);
  console.log('fmt           rows   file      run          time       peak RSS');
  for (const format of formats as BenchFormat[]) {
    for (const line of await benchFormat(format, count)) console.log(line);
  }
  return 0;
});
