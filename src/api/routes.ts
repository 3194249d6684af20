/** The read API's routes: its endpoints (src/api/endpoints.ts) bound to the running service. */
import type { Route } from '../http/router.js';
import type { Published, Representation, Staleness } from '../snapshot/types.js';
import { endpointRoutes } from './endpoint.js';
import { API_ENDPOINTS } from './endpoints.js';
import type { SourceHealth } from './health.js';
import { SinceStreams, type MinRate } from './since-streams.js';

export interface ApiOptions {
  published: Published;
  /** BASE_URL (links to the next page of a since result). */
  baseUrl: string;
  /** The OpenAPI document, prepared once. */
  openapi: Representation;
  /** Large since results streamed at once (503 with `Retry-After` beyond). */
  maxStreams: number;
  /** A large since result read slower than this is cut (default: 32 KiB in 30 s). */
  minRate?: MinRate;
  /** Called when a stream of a superseded data version ends (its bytes can be collected). */
  released?: () => void;
  /** Since when and why the served version could not be refreshed (`Publisher.stale`). */
  stale?: () => Staleness | null;
  /**
   * `/healthz` answers 503 once the store has held a newer version that this instance could not
   * publish for this long (`HEALTHZ_STALE_SECONDS`); 0: never.
   */
  staleAfterMs?: number;
  /** The configured review sources' status, listed by `/healthz`. */
  sources?: () => readonly SourceHealth[];
}

/**
 * The routes of the read API: every document of the catalogue, search, since, the OpenAPI
 * document and the health check.
 */
export function apiRoutes({
  published,
  openapi,
  baseUrl,
  maxStreams,
  minRate,
  released,
  stale,
  staleAfterMs = 0,
  sources,
}: ApiOptions): Route[] {
  return endpointRoutes(API_ENDPOINTS, {
    published,
    baseUrl,
    openapi,
    streams: new SinceStreams(published, maxStreams, minRate, released),
    stale: stale ?? (() => null),
    staleAfterMs,
    ...(sources && { sources }),
  });
}
