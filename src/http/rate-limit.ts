import { isIPv6 } from 'node:net';

import { isStoreUnavailable, type RateStore } from '../store/index.js';

/** The outcome of counting one request against its client's budget. */
export type RateDecision = { ok: true } | { ok: false; retryAfterSeconds: number };

export interface RateLimiter {
  take(key: string, now: number): Promise<RateDecision>;
}

const WINDOW_MS = 60_000;
/**
 * The rate-limit key of a client address: IPv4 (IPv4-mapped included) as is, IPv6 by its /64,
 * since one subscriber usually holds a whole /64.
 */
export function clientKey(remoteAddress: string | undefined): string {
  const address = remoteAddress ?? 'unknown';
  if (address.startsWith('::ffff:') && address.includes('.')) return address.slice(7);
  if (!isIPv6(address)) return address;
  const [head = '', tail = ''] = address.split('::');
  const groups = head === '' ? [] : head.split(':');
  const fill = 8 - groups.length - (tail === '' ? 0 : tail.split(':').length);
  const full = [
    ...groups,
    ...Array<string>(Math.max(fill, 0)).fill('0'),
    ...(tail ? tail.split(':') : []),
  ];
  return `${full.slice(0, 4).join(':')}::/64`;
}

/**
 * A fixed one-minute window per client: `perMinute` requests, then 429 with the seconds left in
 * the window. The counters live in the store, so the budget holds across every instance that
 * shares it. `scope` keeps the counters of different limits apart. When the store is unavailable
 * (another process holds its write lock for longer than a moment, or the database server is
 * away), the request passes uncounted rather than wait for it or fail.
 */
export function createRateLimiter(store: RateStore, scope: string, perMinute: number): RateLimiter {
  return {
    async take(key, now) {
      let decision;
      try {
        decision = await store.take(`${scope}:${key}`, now, WINDOW_MS, perMinute);
      } catch (err) {
        if (isStoreUnavailable(err)) return { ok: true };
        throw err;
      }
      if (decision.ok) return decision;
      return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil(decision.retryAfterMs / 1000)) };
    },
  };
}
