import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../store/index.js';
import { clientKey, createRateLimiter } from './rate-limit.js';

const dir = mkdtempSync(join(tmpdir(), 'rate-limit-'));
const stores: Store[] = [];
afterAll(async () => {
  for (const s of stores) await s.close();
  rmSync(dir, { recursive: true, force: true });
});
const open = (): Store => {
  const store = openStore(`sqlite:${join(dir, 'reviews.db')}`);
  stores.push(store);
  return store;
};

describe('the hub rate limit', () => {
  it('allows the budget per minute, then answers with the seconds left in the window', async () => {
    const limiter = createRateLimiter(open().rates, 'test-1', 2);
    expect(await limiter.take('a', 0)).toEqual({ ok: true });
    expect(await limiter.take('a', 1_000)).toEqual({ ok: true });
    expect(await limiter.take('a', 1_500)).toEqual({ ok: false, retryAfterSeconds: 59 });
    expect(await limiter.take('b', 1_500)).toEqual({ ok: true });
    expect(await limiter.take('a', 59_999)).toEqual({ ok: false, retryAfterSeconds: 1 });
    expect(await limiter.take('a', 60_000)).toEqual({ ok: true });
  });

  it('counts the requests of every instance that shares the store', async () => {
    const one = createRateLimiter(open().rates, 'test-2', 3);
    const two = createRateLimiter(open().rates, 'test-2', 3);
    expect(await one.take('c', 0)).toEqual({ ok: true });
    expect(await two.take('c', 10)).toEqual({ ok: true });
    expect(await one.take('c', 20)).toEqual({ ok: true });
    expect(await two.take('c', 30)).toEqual({ ok: false, retryAfterSeconds: 60 });
  });

  it('keys IPv4 by address and IPv6 by /64', () => {
    expect(clientKey('203.0.113.9')).toBe('203.0.113.9');
    expect(clientKey('::ffff:203.0.113.9')).toBe('203.0.113.9');
    expect(clientKey('2001:db8:1:2:3:4:5:6')).toBe('2001:db8:1:2::/64');
    expect(clientKey('2001:db8:1:2::9')).toBe('2001:db8:1:2::/64');
    expect(clientKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(clientKey('::1')).toBe('0:0:0:0::/64');
  });
});
