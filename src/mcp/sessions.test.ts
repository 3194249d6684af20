import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openStore, type SessionStore, type Store } from '../store/index.js';
import { createSessionManager } from './sessions.js';

const dirs: string[] = [];
const stores: Store[] = [];
afterAll(async () => {
  for (const store of stores) await store.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** A real SQLite store in a temp folder: the sessions' secret and ended sessions live there. */
function sqliteSessions(): SessionStore {
  const dir = mkdtempSync(join(tmpdir(), 'sessions-'));
  dirs.push(dir);
  const store = openStore(`sqlite:${join(dir, 'reviews.db')}`);
  stores.push(store);
  return store.sessions;
}

describe('MCP session ids', () => {
  it('verify on any manager that shares the store secret, until they expire', async () => {
    let now = 1_000_000;
    const store = sqliteSessions();
    const a = await createSessionManager(store, { ttlSeconds: 60, secret: null, now: () => now });
    const b = await createSessionManager(store, { ttlSeconds: 60, secret: null, now: () => now });
    const session = a.issue('2025-06-18');
    const checked = await b.check(session.id);
    expect(checked).toMatchObject({ ok: true, claims: { protocolVersion: '2025-06-18' } });
    now += 61_000;
    expect(await b.check(session.id)).toMatchObject({ ok: false, status: 404 });
  });

  it('reject ids signed with another secret, and ended ones', async () => {
    const store = sqliteSessions();
    const a = await createSessionManager(store, { ttlSeconds: 60, secret: 'x'.repeat(32) });
    const other = await createSessionManager(sqliteSessions(), { ttlSeconds: 60, secret: null });
    const session = a.issue('2025-06-18');
    expect(await other.check(session.id)).toMatchObject({ ok: false, status: 404 });
    await a.end(session);
    expect(await a.check(session.id)).toMatchObject({ ok: false, status: 404 });
    expect(await a.check(undefined)).toMatchObject({ ok: false, status: 400 });
  });
});
