/**
 * Commands the benchmarks run as child processes, as an operator would: the sample generator, the
 * real `dealer-reviews import`, and any other command (curl, `dealer-reviews remove`).
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { ROOT } from './harness.js';

/** Runs a command to its end (output ignored); resolves its exit code. */
export function run(
  cmd: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { env: { ...process.env, ...env }, stdio: 'ignore' });
    child.on('error', reject);
    child.on('close', (code) => resolve(code ?? 1));
  });
}

/**
 * Runs `dealer-reviews import <file>` as an operator does, through the package's launcher (which
 * starts it at a lower priority from its first instruction); resolves its exit code.
 */
export function runImport(file: string, databaseUrl: string): Promise<number> {
  return run(join(ROOT, 'bin/dealer-reviews'), ['import', file], { DATABASE_URL: databaseUrl });
}

/**
 * Generates `count` reviews with the sample generator (seed 7, so every run imports the same
 * reviews) into the sample-format file `out`; rejects if the generator fails.
 */
export async function generateSample(count: number, out: string): Promise<void> {
  const code = await run(process.execPath, [
    join(ROOT, 'dist/tools/sample/cli.js'),
    '--count',
    String(count),
    '--seed',
    '7',
    '--out',
    out,
  ]);
  if (code !== 0) throw new Error(`the sample generator exited with ${code}`);
}
