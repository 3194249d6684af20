/** The outcome of counting one request against its client's budget. */
export type RateDecision = { ok: true } | { ok: false; retryAfterMs: number };

/**
 * Fixed-window request counters kept in the store, so that a limit holds across every instance
 * that shares it (the hub's subscribe requests, MCP's `initialize`).
 */
export interface RateStore {
  /**
   * Counts one request of `key` in the window of `windowMs` that contains `nowMs` (windows start
   * at the first request) and says whether it is within `limit`; when not, how long until the
   * window ends.
   */
  take(key: string, nowMs: number, windowMs: number, limit: number): Promise<RateDecision>;
}
