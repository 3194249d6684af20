import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import { openStore, type Store } from '../../src/store/index.js';

/**
 * Gives each test of the calling file a fresh SQLite store in a temporary folder (named from
 * `prefix`), handed to `opened` before the test, closed and removed after it.
 */
export function withTempStore(prefix: string, opened: (store: Store, dir: string) => void): void {
  let dir = '';
  let store: Store | null = null;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), prefix));
    store = openStore(`sqlite:${join(dir, 'reviews.db')}`);
    opened(store, dir);
  });
  afterEach(async () => {
    await store?.close();
    rmSync(dir, { recursive: true, force: true });
  });
}
