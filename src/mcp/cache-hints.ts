import type { CacheHint } from '@modelcontextprotocol/server';

/**
 * The cache step of the 2026-07-28 revision: how long a client (or a shared cache: every result
 * is the same for everyone, there are no credentials) may reuse a list or a read. The SDK puts
 * them on the cacheable results (`ttlMs`, `cacheScope`) of 2026 requests only; 2025 answers are
 * unchanged. The values follow the service's own freshness policy, by what a result depends on:
 *
 * - on the published data (`resources/list`, `resources/read`, `server/discover`, whose
 *   instructions quote the rating count): `DATA_TTL_MS`, the minute the HTTP API already grants
 *   its data documents (`DATA_CACHE_CONTROL`, `max-age=60`). A new data version is built and
 *   published within seconds of an import (`DATA_POLL_MS` or a PostgreSQL NOTIFY, then the
 *   build); a client that must not wait the minute holds a `subscriptions/listen` stream, which
 *   hears of the change as soon as its instance publishes it.
 * - on the server's code only (`tools/list`, `prompts/list`, `resources/templates/list`): they
 *   change with a deployment, so `SURFACE_TTL_MS`, the hour the OpenAPI document is cached.
 */

/** Results that follow the published data: the `max-age` of the HTTP data documents. */
export const DATA_TTL_MS = 60_000;
/** Results that change only with a new deployment: the `max-age` of `/openapi.json`. */
export const SURFACE_TTL_MS = 3_600_000;

const data: CacheHint = { ttlMs: DATA_TTL_MS, cacheScope: 'public' };
const surface: CacheHint = { ttlMs: SURFACE_TTL_MS, cacheScope: 'public' };

/** The SDK's per-operation hints (`ServerOptions.cacheHints`). */
export const CACHE_HINTS = {
  'server/discover': data,
  'resources/list': data,
  'resources/read': data,
  'tools/list': surface,
  'prompts/list': surface,
  'resources/templates/list': surface,
} as const;
