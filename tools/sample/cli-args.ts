import { availableParallelism } from 'node:os';
import { parseArgs } from 'node:util';
import { DEFAULT_OPTIONS } from './generate.js';

/** The generator's command-line options, validated. */
export interface CliOptions {
  seed: number;
  count: number;
  out: string;
  /** Worker threads; the output is the same bytes whatever the number. */
  jobs: number;
  help: boolean;
}

/** The default output path, relative to the working directory (the repository root under npm). */
export const DEFAULT_OUT = 'sample/dealership.json';

/** The usage text printed with `--help` and after a command-line mistake. */
export const USAGE = `usage: npm run generate -- [--seed N] [--count N] [--out PATH]

  --seed N    integer 0..4294967295 (default ${DEFAULT_OPTIONS.seed}); same seed, same bytes
  --count N   number of reviews, 1..10000000 (default ${DEFAULT_OPTIONS.count})
  --out PATH  output file, or - for standard output (default ${DEFAULT_OUT})
  --jobs N    worker threads, 1..16 (default: 1 below 20000 reviews, else up to 4 by CPU count);
              the bytes are the same whatever N`;

/** A command-line mistake, reported as one line with the usage. */
export class CliError extends Error {
  override name = 'CliError';
}

function integer(
  name: string,
  value: string | undefined,
  fallback: number,
  min: number,
  max: number,
): number {
  if (value === undefined) return fallback;
  if (!/^\d+$/.test(value)) throw new CliError(`--${name} must be an integer, got "${value}"`);
  const n = Number(value);
  if (n < min || n > max)
    throw new CliError(`--${name} must be from ${min} to ${max}, got ${value}`);
  return n;
}

/** Parses and validates the generator's arguments (`--seed`, `--count`, `--out`, `--jobs`, `--help`). */
export function parseCliArgs(argv: readonly string[]): CliOptions {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: {
        seed: { type: 'string' },
        count: { type: 'string' },
        out: { type: 'string' },
        jobs: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (err) {
    throw new CliError((err as Error).message);
  }
  const out = values.out ?? DEFAULT_OUT;
  if (out.length === 0) throw new CliError('--out must not be empty');
  const count = integer('count', values.count, DEFAULT_OPTIONS.count, 1, 10_000_000);
  const auto = count < 20_000 ? 1 : Math.min(4, availableParallelism());
  return {
    seed: integer('seed', values.seed, DEFAULT_OPTIONS.seed, 0, 0xffffffff),
    count,
    out,
    jobs: integer('jobs', values.jobs, auto, 1, 16),
    help: values.help ?? false,
  };
}
