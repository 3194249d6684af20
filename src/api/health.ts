import type { Snapshot, Staleness } from '../snapshot/types.js';

/** A review source's status (`src/sources`), as `/healthz` lists it. */
export interface SourceHealth {
  readonly name: string;
  readonly lastSuccessAt: string | null;
  readonly lastError: string | null;
  readonly nextRunAt: string | null;
}

/**
 * The body and status of `/healthz`: 200 `{ status: "ok", dataVersion, reviews }`, with `stale`
 * while the served version could not be refreshed, and `sources` (each configured review
 * source's last success, last error and next run) when any is configured; 503 with `status: "stale"` once a newer
 * version could not be published for `staleAfterMs` (a stuck instance; while only the store is
 * away, every instance is in the same boat and serves what it has: 200).
 */
export function healthOf(
  snapshot: Snapshot,
  stale: Staleness | null,
  staleAfterMs: number,
  now: number,
  sources: readonly SourceHealth[] = [],
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
      // A failing source is reported, never a 503: the instance keeps serving what it has.
      ...(sources.length > 0 && { sources }),
    },
  };
}
