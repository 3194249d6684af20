import { setTimeout as delay } from 'node:timers/promises';
import { ServiceError } from '../../platform/errors.js';

/** The code of a run that Google (or the way to it) failed. */
export const SOURCE_FAILED = 'source_failed';

/** A failed run's reason, fit for a log line and `/healthz`: never a secret. */
export function sourceFailed(message: string): ServiceError {
  return new ServiceError(SOURCE_FAILED, message);
}

/** The most requests a source sends in any minute (Google's default quota: 300 a minute). */
export const REQUESTS_PER_MINUTE = 300;

/** Attempts of one request in all, when Google answers 429 or 5xx or cannot be reached. */
export const MAX_ATTEMPTS = 5;

/** The first backoff, doubled at each retry (with jitter), and the longest wait. */
const BACKOFF_MS = 1_000;
const MAX_WAIT_MS = 60_000;

/**
 * A sliding window of the requests sent: `take` waits until one more keeps the window at most
 * `limit` requests in `windowMs`. One per source, kept across its runs.
 */
export function requestCap(limit = REQUESTS_PER_MINUTE, windowMs = 60_000) {
  const sent: number[] = [];
  return {
    async take(signal: AbortSignal): Promise<void> {
      for (;;) {
        const now = Date.now();
        while (sent.length > 0 && sent[0]! <= now - windowMs) sent.shift();
        if (sent.length < limit) {
          sent.push(now);
          return;
        }
        await delay(sent[0]! + windowMs - now, undefined, { signal });
      }
    },
  };
}

export type RequestCap = ReturnType<typeof requestCap>;

/** The wait `Retry-After` asks for (seconds or an HTTP date), or null. */
export function retryAfterMs(header: string | null, now = Date.now()): number | null {
  if (header === null) return null;
  if (/^\d+$/.test(header.trim())) return Number(header.trim()) * 1000;
  const at = Date.parse(header);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

/** The backoff before retry `n` (1, 2, ...): exponential, with full jitter over its upper half. */
export function backoffMs(n: number, random = Math.random): number {
  const ceiling = Math.min(MAX_WAIT_MS, BACKOFF_MS * 2 ** (n - 1));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

const retryable = (status: number): boolean => status === 429 || status >= 500;

/** Where a request went, for messages: the host and path, never a query or a credential. */
const target = (url: string): string => {
  const u = new URL(url);
  return `${u.host}${u.pathname}`;
};

/**
 * Sends one request under the cap, and again (at most `MAX_ATTEMPTS` in all) while the answer is
 * 429 or 5xx or the server cannot be reached, waiting what `Retry-After` says or an exponential
 * backoff with jitter; after that, the run fails with a clear reason.
 */
export async function sendWithRetries(
  url: string,
  init: () => RequestInit,
  o: { cap: RequestCap; signal: AbortSignal },
): Promise<Response> {
  for (let attempt = 1; ; attempt++) {
    await o.cap.take(o.signal);
    let response: Response | null = null;
    let reason: string;
    try {
      response = await fetch(url, { ...init(), signal: o.signal });
      if (!retryable(response.status)) return response;
      reason = `answered ${response.status}`;
      await response.body?.cancel();
    } catch (err) {
      if (o.signal.aborted) throw sourceFailed('the run was stopped');
      const cause = (err as { cause?: { code?: string } }).cause?.code;
      reason = `could not be reached (${cause ?? (err as Error).message})`;
    }
    if (attempt >= MAX_ATTEMPTS) {
      throw sourceFailed(
        `${target(url)} ${reason} ${MAX_ATTEMPTS} times; giving up until the next run`,
      );
    }
    const asked = retryAfterMs(response?.headers.get('retry-after') ?? null);
    await delay(Math.min(MAX_WAIT_MS, asked ?? backoffMs(attempt)), undefined, {
      signal: o.signal,
    });
  }
}
