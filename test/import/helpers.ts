import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Review } from '../../src/domain/review.js';
import { parseCliArgs } from '../../src/import/args.js';
import { runImport, strictImportSummary, type ImportSummary } from '../../src/import/index.js';
import { openStore } from '../../src/store/index.js';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
/** The built command line (`dealer-reviews`), as an operator runs it. */
export const BIN = join(ROOT, 'dist', 'src', 'bin.js');
export const FIXTURES = join(ROOT, 'test', 'fixtures');

/** A fixture's path. */
export const fixture = (name: string): string => join(FIXTURES, name);

/** A fresh temporary directory, removed by the returned function. */
export function tempDir(): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'dealer-reviews-import-'));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/**
 * The child's environment: this one without the service's variables (vitest sets BASE_URL to
 * "/", which the config rightly refuses), with DATABASE_URL naming the test store.
 */
function childEnv(db: string): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const key of ['PORT', 'HOST', 'BASE_URL', 'SAMPLE_DATA', 'LOG_LEVEL', 'DATA_POLL_MS']) {
    delete env[key];
  }
  return { ...env, DATABASE_URL: `sqlite:${db}` };
}

/**
 * Starts `dealer-reviews <command>` (built by the e2e project's setup) against the SQLite store at
 * `db`, with `env` added to its environment.
 */
export function spawnCommand(
  command: string,
  args: readonly string[],
  db: string,
  env: NodeJS.ProcessEnv = {},
): ChildProcess {
  return spawn(process.execPath, [BIN, command, ...args], {
    cwd: ROOT,
    env: { ...childEnv(db), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** Starts `dealer-reviews import` against the SQLite store at `db`. */
export function spawnCli(args: readonly string[], db: string): ChildProcess {
  return spawnCommand('import', args, db);
}

/** Runs `dealer-reviews <command>` to completion. */
export function runCommand(
  command: string,
  args: readonly string[],
  db: string,
  env: NodeJS.ProcessEnv = {},
): Promise<CliResult> {
  return collect(spawnCommand(command, args, db, env));
}

/** Runs the built CLI to completion. */
export function runCli(args: readonly string[], db: string): Promise<CliResult> {
  return collect(spawnCli(args, db));
}

function collect(child: ChildProcess): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((res, rej) => {
    child.on('error', rej);
    child.on('close', (code, signal) => res({ code, signal, stdout, stderr }));
  });
}

/** The `--json` summary the CLI printed. */
export interface JsonSummary {
  inserted: number;
  updated: number;
  unchanged: number;
  rejected: { row: number; field: string; reason: string; line?: number; file?: string }[];
  pruned: number;
  rederived: number;
  hidden: number;
  businessChanged: boolean;
  version: number | null;
  committed: boolean;
  dryRun: boolean;
  format: string;
  rows: number;
  warnings: string[];
  reported?: Record<string, unknown>;
}

/** Runs the built CLI with `--json` as a process and parses its stdout. */
export async function importJsonCli(
  args: readonly string[],
  db: string,
): Promise<{ result: CliResult; summary: JsonSummary }> {
  const result = await runCli([...args, '--json'], db);
  return { result, summary: JSON.parse(result.stdout) as JsonSummary };
}

/**
 * Imports in this process what `dealer-reviews import <args> --json` would: the command's own
 * argument parser and `runImport`, against the SQLite store at `db`, with the summary it would
 * print (a `--strict` refusal is exit code 1 with the summary, as the command). What only the
 * process shows (exit codes of bad input, one-line errors, the printed table) is proved by the
 * tests that spawn it (`runCli`, `importJsonCli`); an import costs no process start here.
 */
export async function importJson(
  args: readonly string[],
  db: string,
): Promise<{ result: CliResult; summary: JsonSummary }> {
  const parsed = parseCliArgs(args);
  if (!parsed) throw new Error(`not an import: ${args.join(' ')}`);
  const store = openStore(`sqlite:${db}`);
  let code = 0;
  let stderr = '';
  let summary: ImportSummary;
  try {
    summary = await runImport(store, {
      path: parsed.path,
      format: parsed.format,
      strict: parsed.strict,
      prune: parsed.prune,
      dryRun: parsed.dryRun,
      defaultSource: parsed.source,
    });
  } catch (err) {
    const refused = strictImportSummary(err);
    if (refused === null) throw err;
    summary = refused;
    code = 1;
    stderr = `import: ${(err as Error).message}\n`;
  } finally {
    await store.close();
  }
  const stdout = `${JSON.stringify(summary, null, 2)}\n`;
  return {
    result: { code, signal: null, stdout, stderr },
    summary: JSON.parse(stdout) as JsonSummary,
  };
}

/** What the store publishes: the data version and the reviews by sourceReviewId. */
export async function readPublished(
  db: string,
): Promise<{ version: number; reviews: Map<string, Review>; business: unknown }> {
  const store = openStore(`sqlite:${db}`);
  try {
    const data = await store.readDataset();
    const reviews = new Map<string, Review>();
    for (const json of data.reviews) {
      const r = JSON.parse(json) as Review;
      reviews.set(r.sourceReviewId, r);
    }
    return { version: data.state.version, reviews, business: data.business };
  } finally {
    await store.close();
  }
}
