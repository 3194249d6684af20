import { isIPv6 } from 'node:net';

/** The outcome of counting one request against its client's budget. */
export type RateDecision = { ok: true } | { ok: false; retryAfterSeconds: number };

export interface RateLimiter {
  take(key: string, now: number): RateDecision;
}

const WINDOW_MS = 60_000;
/** Clients tracked at most; past it, finished windows are dropped first. */
const MAX_TRACKED = 100_000;

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
 * the window. Kept in memory per instance (several instances each allow the budget).
 */
export function createRateLimiter(perMinute: number): RateLimiter {
  const windows = new Map<string, { start: number; count: number }>();
  const prune = (now: number) => {
    for (const [key, w] of windows) if (now - w.start >= WINDOW_MS) windows.delete(key);
  };
  return {
    take(key, now) {
      let w = windows.get(key);
      if (!w || now - w.start >= WINDOW_MS) {
        if (!w && windows.size >= MAX_TRACKED) prune(now);
        w = { start: now, count: 0 };
        windows.set(key, w);
      }
      w.count++;
      if (w.count <= perMinute) return { ok: true };
      return {
        ok: false,
        retryAfterSeconds: Math.max(1, Math.ceil((w.start + WINDOW_MS - now) / 1000)),
      };
    },
  };
}
