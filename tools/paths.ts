import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root: the nearest folder above this module with a `package.json`. */
export function repoRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json'))) {
    const up = dirname(dir);
    if (up === dir) throw new Error('cannot find the repository root');
    dir = up;
  }
  return dir;
}

/**
 * The shared training and evaluation data: `../shared/data` from the repository root. It is never
 * copied into the repository; the offline tools read it in place.
 */
export function sharedDataDir(): string {
  return resolve(repoRoot(), '..', 'shared', 'data');
}

/** The shared data folder, or a `MissingDataError` when it is not beside the repository. */
export function requireSharedData(): string {
  const dir = sharedDataDir();
  if (!existsSync(dir)) throw new MissingDataError(dir);
  return dir;
}

/**
 * A file of the shared data, or a `MissingDataError` that says in one line what is missing and
 * where it was looked for.
 */
export function sharedDataFile(...parts: string[]): string {
  const path = join(sharedDataDir(), ...parts);
  if (!existsSync(path)) throw new MissingDataError(path);
  return path;
}

/** A tool's input data is not where it should be: reported in one line, never as a stack trace. */
export class MissingDataError extends Error {
  override name = 'MissingDataError';
  constructor(readonly path: string) {
    super(
      `needs ${path}, which is missing: place the shared evaluation data (../shared/data) beside the repository`,
    );
  }
}
