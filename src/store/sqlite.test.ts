import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore } from './index.js';
import { describeStoreContract } from './store-contract.js';
import type { Store } from './types.js';

describeStoreContract('SQLite', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'store-contract-'));
  const url = `sqlite:${join(dir, 'reviews.db')}`;
  const opened: Store[] = [openStore(url)];
  return {
    store: opened[0]!,
    async openAnother() {
      const other = openStore(url);
      opened.push(other);
      return other;
    },
    async cleanup() {
      for (const s of opened) await s.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
});
