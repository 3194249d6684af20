import { mkdirSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

function errorCode(err: unknown): unknown {
  return (err as { code?: unknown } | null)?.code;
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch (err) {
    if (errorCode(err) === 'ENOENT') return false;
    throw err;
  }
}

/**
 * Creates `dir` and its missing parents, one level at a time, and fails when one cannot be
 * created. Node's `mkdirSync(dir, { recursive: true })` never returns when a parent exists but
 * cannot hold the child (it retries the parent, gets EEXIST, retries the child, gets ENOENT,
 * forever): a path under `/proc`, or behind a dangling symbolic link. That spin blocks the event
 * loop, so no deadline can end it; this walk is bounded by the depth of the path.
 */
export function ensureDirectory(dir: string): void {
  const missing: string[] = [];
  for (let current = resolve(dir); !isDirectory(current); current = dirname(current)) {
    missing.push(current);
    if (dirname(current) === current) break;
  }
  for (const path of missing.reverse()) {
    try {
      mkdirSync(path);
    } catch (err) {
      if (errorCode(err) !== 'EEXIST') throw err;
      // A file in the way, or a symbolic link to nothing: no folder either.
      if (!isDirectory(path)) throw new Error(`${path} is not a folder (a file or a broken link)`);
    }
  }
}

/**
 * Fails when `path` exists but is not a regular file: SQLite would block for ever reading a
 * named pipe (synchronously, so no deadline could end it) and cannot use a device or a folder.
 */
export function checkDatabaseFile(path: string): void {
  let stats;
  try {
    stats = statSync(path);
  } catch (err) {
    if (errorCode(err) === 'ENOENT') return;
    throw err;
  }
  if (!stats.isFile()) throw new Error(`${path} is not a regular file`);
}
