import { describe, expect, it } from 'vitest';
import { clientKey, createRateLimiter } from './rate-limit.js';

describe('the hub rate limit', () => {
  it('allows the budget per minute, then answers with the seconds left in the window', () => {
    const limiter = createRateLimiter(2);
    expect(limiter.take('a', 0)).toEqual({ ok: true });
    expect(limiter.take('a', 1_000)).toEqual({ ok: true });
    expect(limiter.take('a', 1_500)).toEqual({ ok: false, retryAfterSeconds: 59 });
    expect(limiter.take('b', 1_500)).toEqual({ ok: true });
    expect(limiter.take('a', 59_999)).toEqual({ ok: false, retryAfterSeconds: 1 });
    expect(limiter.take('a', 60_000)).toEqual({ ok: true });
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
