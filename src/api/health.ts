import type { Snapshot, Staleness } from '../snapshot/types.js';

/**
 * The body and status of `/healthz`: 200 `{ status: "ok", dataVersion, reviews }`, with `stale`
 * while the served version could not be refreshed; 503 with `status: "stale"` once a newer
 * version could not be published for `staleAfterMs` (a stuck instance; while only the store is
 * away, every instance is in the same boat and serves what it has: 200).
 */
export function healthOf(
  snapshot: Snapshot,
  stale: Staleness | null,
  staleAfterMs: number,
  now: number,
): { status: 200 | 503; body: Record<string, unknown> } {
  const stuck =
    stale?.behindSince != null && staleAfterMs > 0 && now - stale.behindSince >= staleAfterMs;
  return {
    status: stuck ? 503 : 200,
    body: {
      status: stuck ? 'stale' : 'ok',
      dataVersion: snapshot.state.version,
      reviews: snapshot.index.size,
      ...(stale && {
        stale: {
          since: new Date(stale.since).toISOString(),
          reason: stale.reason,
          ...(stale.newerVersion !== null && { newerVersion: stale.newerVersion }),
        },
      }),
    },
  };
}
