import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { storedRow } from '../helpers/records.js';
import { openServiceStore, openStore } from '../../src/store/index.js';
import type { ServiceStore, Store } from '../../src/store/index.js';
import { describeWebSubContract } from './websub-contract.js';

/**
 * The service's store on its own thread (`openServiceStore` for SQLite): the same answers as the
 * store itself, for what the service asks of it.
 */
describe('the SQLite store on its own thread', () => {
  let dir: string;
  let url: string;
  let store: ServiceStore;
  const others: (ServiceStore | Store)[] = [];

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'store-thread-'));
    url = `sqlite:${join(dir, 'reviews.db')}`;
    store = await openServiceStore(url);
  });
  afterEach(async () => {
    await store.close();
    for (const other of others.splice(0)) await other.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('reads the data version another connection commits', async () => {
    const writer = openStore(url);
    others.push(writer);
    const before = await store.state();
    const committed = await writer.transaction(async (tx) => {
      await tx.upsertReviews([storedRow('a')]);
      return tx.bumpVersion('2030-01-01T00:00:00.000Z');
    });
    expect(committed.version).toBe(before.version + 1);
    expect(await store.state()).toEqual(committed);
  });

  it('shares session secrets and ended sessions with other instances', async () => {
    const other = await openServiceStore(url);
    others.push(other);
    const secret = await store.sessions.secret('mcp', 'first-secret-value');
    expect(await other.sessions.secret('mcp', 'second-value')).toBe(secret);
    await other.sessions.end('session-key', Date.now() + 60_000);
    expect(await store.sessions.isEnded('session-key')).toBe(true);
    expect(await store.sessions.purgeEnded(Date.now() + 120_000)).toBe(1);
  });

  it('rejects a store that cannot be opened, with the reason', async () => {
    await expect(openServiceStore('sqlite:/proc/no-such-dir/reviews.db')).rejects.toThrow(/ENOENT/);
  });

  it('passes errors back with their name and message', async () => {
    const websub = store.websub as unknown as { noSuchOperation(): Promise<unknown> };
    await expect(websub.noSuchOperation()).rejects.toMatchObject({
      name: 'Error',
      message: 'unknown operation websub.noSuchOperation',
    });
  });

  describeWebSubContract(
    () => store,
    async () => {
      const other = await openServiceStore(url);
      others.push(other);
      return other;
    },
  );
});
