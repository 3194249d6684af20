import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { storedRow } from '../helpers/records.js';
import { CONCURRENT_CHANGE, openStore } from '../../src/store/index.js';
import { isServiceError } from '../../src/platform/errors.js';
import { overlappingWrites } from './overlapping-writes.js';
import { describeStoreContract } from './store-contract.js';
import { describeTransferContract } from './transfer-contract.js';
import type { Store } from '../../src/store/index.js';

const isConcurrentChange = (err: unknown): boolean => isServiceError(err, CONCURRENT_CHANGE);

describeStoreContract(
  'SQLite',
  async () => {
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
  },
  { watches: false },
);

/** A new SQLite store in a folder of its own. */
async function openTemporarySqlite() {
  const dir = mkdtempSync(join(tmpdir(), 'store-transfer-'));
  const store = openStore(`sqlite:${join(dir, 'reviews.db')}`);
  return {
    store,
    async cleanup() {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

describeTransferContract('SQLite to SQLite', openTemporarySqlite, openTemporarySqlite);

describe('SQLite staged transactions', () => {
  let dir: string;
  let url: string;
  const opened: Store[] = [];
  const open = (): Store => {
    const store = openStore(url);
    opened.push(store);
    return store;
  };
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'store-staged-'));
    url = `sqlite:${join(dir, 'reviews.db')}`;
  });
  afterEach(async () => {
    for (const s of opened.splice(0)) await s.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('hold no write lock while they stage: another connection writes meanwhile', async () => {
    const importer = open();
    const service = open();
    let release!: () => void;
    const staged = new Promise<void>((resolve) => (release = resolve));
    const running = importer.transaction(async (tx) => {
      await tx.upsertReviews([storedRow('a')]);
      await staged;
      await tx.bumpVersion('2030-01-01T00:00:00.000Z');
    });
    // The service's own writes go through while the import is half way.
    await service.sessions.end('session-1', Date.now() + 60_000);
    expect(await service.sessions.isEnded('session-1')).toBe(true);
    expect(await service.countReviews()).toBe(0);
    release();
    await running;
    expect(await service.countReviews()).toBe(1);
  });

  it('write nothing when another writer committed a change meanwhile', async () => {
    const first = open();
    const second = open();
    const { slow, quick } = await overlappingWrites(first, second);
    await expect(slow).rejects.toSatisfy(isConcurrentChange);
    expect(await first.state()).toEqual(quick);
    const ids = (await first.readDataset()).reviews.map(
      (json) => (JSON.parse(json) as { sourceReviewId: string }).sourceReviewId,
    );
    expect(ids).toEqual(['quick']);
  });
});
