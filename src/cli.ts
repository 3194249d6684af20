import { parseArgs, type ParseArgsConfig } from 'node:util';
import { isServiceError, ServiceError } from './platform/errors.js';

/**
 * The conventions every command line of the project shares (`dealer-reviews <command>`, the
 * npm scripts, the offline tools): `-h`/`--help` prints the usage on stdout and exits 0; a bad
 * command line prints the reason and the usage on stderr and exits 2; a failure (a missing file,
 * a bad environment variable, a database error) is one line on stderr and exit code 1, never a
 * stack trace.
 */
export interface CommandLine {
  /** The name in messages: `import`, `insights`, `train`, ... */
  readonly name: string;
  readonly usage: string;
}

/** The code of a bad command line. */
export const USAGE_ERROR = 'usage';

/** A bad command line: reported with the usage, exit code 2. */
export function usageError(message: string): ServiceError {
  return new ServiceError(USAGE_ERROR, message, { exitCode: 2 });
}

/** The code of an expected failure of a command. */
export const COMMAND_FAILED = 'command_failed';

/** An expected failure with a message fit for the operator (no stack trace), exit code 1. */
export function commandFailed(message: string): ServiceError {
  return new ServiceError(COMMAND_FAILED, message);
}

type Options = NonNullable<ParseArgsConfig['options']>;

/**
 * Parses `argv` with node's `parseArgs` (strict, positionals allowed) plus `-h`/`--help`; `null`
 * means help was asked for. Unknown options and missing values are usage errors.
 */
export function parseCommandLine<O extends Options>(argv: readonly string[], options: O) {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      strict: true,
      options: { ...options, help: { type: 'boolean', short: 'h' } },
    });
  } catch (err) {
    throw usageError((err as Error).message);
  }
  if ((parsed.values as { help?: boolean }).help) return null;
  return parsed;
}

/**
 * The one-line message of an error that reaches the top of a command: a `ServiceError`'s public
 * message as it is.
 */
export function describeError(err: unknown): string {
  if (isServiceError(err)) return err.message;
  const e = err as { code?: unknown; message?: unknown; path?: unknown; name?: unknown };
  if (e?.code === 'ENOENT' && typeof e.path === 'string') return `${e.path}: no such file`;
  if (e?.code === 'EACCES' && typeof e.path === 'string') return `${e.path}: permission denied`;
  if (e?.name === 'MissingDataError' && typeof e.message === 'string') return e.message;
  return `unexpected error: ${typeof e?.message === 'string' ? e.message : String(err)}`;
}

/**
 * Runs a command's body with the shared conventions and returns its exit code: usage errors
 * print the usage (2), other errors one line (a `ServiceError`'s own exit code, else 1). The
 * body returns its own exit code.
 */
export async function runCommandLine(
  cli: CommandLine,
  body: () => Promise<number>,
): Promise<number> {
  try {
    return await body();
  } catch (err) {
    if (isServiceError(err, USAGE_ERROR)) {
      process.stderr.write(`${cli.name}: ${err.message}\n\n${cli.usage}\n`);
      return err.exitCode;
    }
    process.stderr.write(`${cli.name}: ${describeError(err)}\n`);
    return isServiceError(err) ? err.exitCode : 1;
  }
}

/** Prints the usage on stdout (for `--help`) and returns exit code 0. */
export function printUsage(cli: CommandLine): number {
  process.stdout.write(`${cli.usage}\n`);
  return 0;
}
