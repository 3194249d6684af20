import { RETRY_MS } from '../platform/version-policy.js';

/** How the publisher retries a refresh that failed (see `createBackoff`). */
export interface BackoffOptions {
  /** The delay before the first retry. */
  firstMs: number;
  /** The longest delay between two retries. */
  maxMs: number;
  /** A number in [0, 1): the jitter's source (`Math.random`; a constant in tests). */
  random: () => number;
}

/** How a failed refresh is retried: `RETRY_MS` (the policy's reason), with random jitter. */
export const RETRY: BackoffOptions = { ...RETRY_MS, random: Math.random };

/** The delays between the retries of an operation that keeps failing. */
export interface Backoff {
  /** The delay before the next retry (each call one failure more). */
  next(): number;
  /** After a success: the next failure waits `firstMs` again. */
  reset(): void;
}

/**
 * Doubling delays from `firstMs` up to `maxMs`, each moved by up to a quarter either way at
 * random, so that instances that failed together (one database for all) do not retry together.
 */
export function createBackoff(options: BackoffOptions = RETRY): Backoff {
  let failures = 0;
  return {
    next() {
      const step = Math.min(options.maxMs, options.firstMs * 2 ** Math.min(failures, 30));
      failures++;
      return Math.round(step * (0.75 + 0.5 * options.random()));
    },
    reset() {
      failures = 0;
    },
  };
}
