import { describe, expect, it } from 'vitest';
import type { SessionStore } from '../store/index.js';
import { createSessionManager } from './sessions.js';

function memoryStore(): SessionStore {
  const secrets = new Map<string, string>();
  const ended = new Map<string, number>();
  return {
    async secret(name, create) {
      if (!secrets.has(name)) secrets.set(name, create());
      return secrets.get(name)!;
    },
    async isEnded(key) {
      return ended.has(key);
    },
    async end(key, expiresAtMs) {
      ended.set(key, expiresAtMs);
    },
    async purgeEnded(now) {
      let n = 0;
      for (const [k, exp] of ended) if (exp < now && ended.delete(k)) n++;
      return n;
    },
  };
}

describe('MCP session ids', () => {
  it('verify on any manager that shares the store secret, until they expire', async () => {
    let now = 1_000_000;
    const store = memoryStore();
    const a = await createSessionManager(store, { ttlSeconds: 60, secret: null, now: () => now });
    const b = await createSessionManager(store, { ttlSeconds: 60, secret: null, now: () => now });
    const session = a.issue('2025-06-18');
    const checked = await b.check(session.id);
    expect(checked).toMatchObject({ ok: true, claims: { protocolVersion: '2025-06-18' } });
    now += 61_000;
    expect(await b.check(session.id)).toMatchObject({ ok: false, status: 404 });
  });

  it('reject ids signed with another secret, and ended ones', async () => {
    const store = memoryStore();
    const a = await createSessionManager(store, { ttlSeconds: 60, secret: 'x'.repeat(32) });
    const other = await createSessionManager(memoryStore(), { ttlSeconds: 60, secret: null });
    const session = a.issue('2025-06-18');
    expect(await other.check(session.id)).toMatchObject({ ok: false, status: 404 });
    await a.end(session);
    expect(await a.check(session.id)).toMatchObject({ ok: false, status: 404 });
    expect(await a.check(undefined)).toMatchObject({ ok: false, status: 400 });
  });
});
