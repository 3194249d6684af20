import type { z } from 'zod';
import { EnvSchema, type LOG_LEVELS } from './config/env-schema.js';
import {
  gbpSettings,
  SOURCE_ENV_SHAPE,
  SOURCE_SECRETS,
  type GbpSettings,
} from './config/sources.js';
import { maskDatabaseUrl } from './store/index.js';
import { dict, own, type Dict } from './platform/dict.js';
import { ServiceError } from './platform/errors.js';

export { EnvSchema };

export interface Config {
  readonly port: number;
  readonly host: string;
  /** No trailing slash; every absolute URL the service emits starts with it. */
  readonly baseUrl: string;
  readonly databaseUrl: string;
  /** Load the sample dealership into an empty store: SAMPLE_DATA, else on outside production. */
  readonly sampleData: boolean;
  /**
   * Started by npm (`npm start`, `npx dealer-reviews serve`: npm sets `npm_lifecycle_event`),
   * whose shell may die of a stop signal without passing it on: the service then stops when it
   * loses its parent (`src/shutdown.ts`).
   */
  readonly startedByNpm: boolean;
  readonly logLevel: (typeof LOG_LEVELS)[number];
  /** How often the service checks the store for changes committed by other processes. */
  readonly dataPollMs: number;
  /**
   * `/healthz` answers 503 once the store has held a newer data version that the instance could
   * not publish for this long (0: never).
   */
  readonly healthzStaleMs: number;
  /** Search and since responses kept per data version (0 turns the cache off). */
  readonly responseCacheEntries: number;
  /**
   * A connection on which no byte moves either way for this long is closed (a client that stops
   * reading its answer would otherwise hold it, and the data version it was cut from, forever).
   */
  readonly socketTimeoutMs: number;
  /** Large since results streamed at once (503 with `Retry-After` beyond). */
  readonly sinceMaxStreams: number;
  /**
   * The slowest a streamed since result may be read: fewer than `bytes` taken in any `windowMs`
   * once the answer has begun, and it is cut (its stream slot freed).
   */
  readonly sinceMinRate: { readonly bytes: number; readonly windowMs: number };
  /** Origins allowed to call /mcp from a browser (requests without Origin are always allowed). */
  readonly mcpAllowedOrigins: readonly string[];
  readonly mcpMaxBodyBytes: number;
  /** Origins whose pages may frame `/embed` (`['*']`: any); every other page refuses framing. */
  readonly embedAllowedOrigins: readonly string[];
  /** MCP sessions a client address may open per minute (across instances). */
  readonly mcpInitializePerMin: number;
  readonly mcpSessionTtlSeconds: number;
  /** When unset, a secret is generated once and kept in the store, shared by every instance. */
  readonly mcpSessionSecret: string | null;
  /** MCP event streams one client address may hold open on an instance (429 beyond). */
  readonly mcpStreamsPerAddress: number;
  /** An MCP event stream with no activity (events, its session's requests) for this long ends. */
  readonly mcpStreamIdleSeconds: number;
  /** The WebSub hub's limits and policies. */
  readonly websub: WebSubConfig;
  /**
   * Reverse proxies whose `X-Forwarded-For` is believed (the client address of rate limits);
   * empty: the TCP peer is the client.
   */
  readonly trustProxyCidrs: readonly string[];
  /** The review sources the service runs by itself (`src/sources`, docs/sources.md). */
  readonly sync: SyncConfig;
  /** Where `GET /metrics` is served (`METRICS_HOST`, `METRICS_PORT`); null: no metrics. */
  readonly metrics: { readonly host: string; readonly port: number } | null;
}

/** Settings of the review sources (`SYNC_*`). */
export interface SyncConfig {
  /** From the end of a source's run to its next (0: scheduled sync is off). */
  readonly intervalMs: number;
  /** Google Business Profile (`GBP_*`), or null when `GBP_LOCATION` is unset. */
  readonly gbp: GbpSettings | null;
  /** Watched export URLs (`SYNC_URLS`), each a source. */
  readonly urls: readonly string[];
  /** Addresses the export URLs may reach although private or loopback, and over http. */
  readonly allowCidrs: readonly string[];
}

export type { GbpSettings };

/** Settings of the WebSub hub (every `WEBSUB_*` variable). */
export interface WebSubConfig {
  /** Address ranges callbacks may reach although they are private or reserved. */
  readonly callbackAllowCidrs: readonly string[];
  readonly rateLimitPerMin: number;
  /** Timeout of one outgoing request (connect, headers and body each). */
  readonly timeoutMs: number;
  /** Delays before each retry of a failed delivery; their count is the number of retries. */
  readonly retryDelaysMs: readonly number[];
  /** Outgoing requests in flight at once, and per callback host. */
  readonly concurrency: number;
  readonly hostConcurrency: number;
  /** Subscriptions (and pending requests) per callback host. */
  readonly maxSubscriptionsPerHost: number;
  readonly lease: {
    readonly minSeconds: number;
    readonly defaultSeconds: number;
    readonly maxSeconds: number;
  };
}

/** The code of a configuration problem. */
export const CONFIG_INVALID = 'config_invalid';

/** A configuration problem, reported as one line at start-up (exit code 1; `serve` says 78). */
function configError(message: string): ServiceError {
  return new ServiceError(CONFIG_INVALID, message);
}

type EnvKey = keyof typeof EnvSchema.shape;

/** Variables whose values no message shows, not even in part. */
const SECRETS: ReadonlySet<string> = new Set(['MCP_SESSION_SECRET', ...SOURCE_SECRETS]);

/** Parses the variables of `schema` (empty ones count as unset); a `CONFIG_INVALID` error names the first bad one. */
function parseEnv<S extends z.ZodObject>(schema: S, env: NodeJS.ProcessEnv): z.output<S> {
  const relevant: Dict<string> = dict();
  for (const key of Object.keys(schema.shape)) {
    const value = own(env, key);
    if (value !== undefined && value !== '') relevant[key] = value;
  }
  const parsed = schema.safeParse(relevant);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const key = String(issue.path[0]);
    const value = relevant[key] ?? '';
    // A database URL may hold a password, and a secret is a secret: never in a message.
    const shown = SECRETS.has(key)
      ? `<${[...value].length} characters>`
      : JSON.stringify(key === 'DATABASE_URL' ? maskDatabaseUrl(value) : value);
    throw configError(`invalid ${key}=${shown}: ${issue.message}`);
  }
  return parsed.data;
}

/**
 * Parses only the named variables, with the same rules and defaults as the service: what an
 * operator command needs (the import reads `DATABASE_URL` alone), so that a bad value of an
 * unrelated variable does not stop it.
 */
export function loadEnv<K extends EnvKey>(
  keys: readonly K[],
  env: NodeJS.ProcessEnv = process.env,
): Pick<z.output<typeof EnvSchema>, K> {
  const mask: Partial<Record<EnvKey, true>> = {};
  for (const k of keys) mask[k] = true;
  return parseEnv(EnvSchema.pick(mask), env) as Pick<z.output<typeof EnvSchema>, K>;
}

/** The variables of the review sources (`dealer-reviews sync` reads these and DATABASE_URL). */
export const SYNC_ENV_KEYS: readonly (
  keyof typeof SOURCE_ENV_SHAPE | 'SYNC_INTERVAL_SECONDS' | 'SYNC_URLS' | 'SYNC_ALLOW_CIDRS'
)[] = [
  'SYNC_INTERVAL_SECONDS',
  'SYNC_URLS',
  'SYNC_ALLOW_CIDRS',
  ...(Object.keys(SOURCE_ENV_SHAPE) as (keyof typeof SOURCE_ENV_SHAPE)[]),
];

/** The review sources' settings from their parsed variables. */
function syncConfig(
  e: Pick<
    z.output<typeof EnvSchema>,
    keyof typeof SOURCE_ENV_SHAPE | 'SYNC_INTERVAL_SECONDS' | 'SYNC_URLS' | 'SYNC_ALLOW_CIDRS'
  >,
): SyncConfig {
  const gbp = gbpSettings(e, configError);
  return Object.freeze({
    intervalMs: e.SYNC_INTERVAL_SECONDS * 1000,
    gbp: gbp && Object.freeze(gbp),
    urls: Object.freeze([...new Set(e.SYNC_URLS)]),
    allowCidrs: Object.freeze(e.SYNC_ALLOW_CIDRS),
  });
}

/** Only the review sources' settings (what `dealer-reviews sync` needs, with DATABASE_URL). */
export function loadSyncConfig(env: NodeJS.ProcessEnv = process.env): SyncConfig {
  return syncConfig(loadEnv(SYNC_ENV_KEYS, env));
}

/**
 * The lease bounds. A refusal names a variable the operator set: the minimum above the maximum
 * blames whichever of the two was set, a default outside them the default. An unset default is
 * moved into the bounds that were set.
 */
function leaseBounds(
  e: z.output<typeof EnvSchema>,
  isSet: (key: EnvKey) => boolean,
): Config['websub']['lease'] {
  const minSeconds = e.WEBSUB_LEASE_MIN_SECONDS;
  const maxSeconds = e.WEBSUB_LEASE_MAX_SECONDS;
  if (minSeconds > maxSeconds) {
    throw configError(
      isSet('WEBSUB_LEASE_MAX_SECONDS') && !isSet('WEBSUB_LEASE_MIN_SECONDS')
        ? `invalid WEBSUB_LEASE_MAX_SECONDS=${JSON.stringify(String(maxSeconds))}: must be at least WEBSUB_LEASE_MIN_SECONDS (${minSeconds})`
        : `invalid WEBSUB_LEASE_MIN_SECONDS=${JSON.stringify(String(minSeconds))}: must not exceed WEBSUB_LEASE_MAX_SECONDS (${maxSeconds})`,
    );
  }
  let defaultSeconds = e.WEBSUB_LEASE_DEFAULT_SECONDS;
  if (!isSet('WEBSUB_LEASE_DEFAULT_SECONDS')) {
    defaultSeconds = Math.min(maxSeconds, Math.max(minSeconds, defaultSeconds));
  } else if (defaultSeconds < minSeconds || defaultSeconds > maxSeconds) {
    throw configError(
      `invalid WEBSUB_LEASE_DEFAULT_SECONDS=${JSON.stringify(String(defaultSeconds))}: must be between WEBSUB_LEASE_MIN_SECONDS (${minSeconds}) and WEBSUB_LEASE_MAX_SECONDS (${maxSeconds})`,
    );
  }
  return { minSeconds, defaultSeconds, maxSeconds };
}

/**
 * Parses and validates the environment once. Empty variables count as unset. Throws a
 * `ServiceError` (`CONFIG_INVALID`) naming the first bad variable.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const e = parseEnv(EnvSchema, env);
  const baseUrl = e.BASE_URL ?? `http://localhost:${e.PORT}`;
  const isSet = (key: EnvKey): boolean => env[key] !== undefined && env[key] !== '';
  const lease = leaseBounds(e, isSet);
  if (isSet('WEBSUB_HOST_CONCURRENCY') && e.WEBSUB_HOST_CONCURRENCY > e.WEBSUB_CONCURRENCY) {
    throw configError(
      `invalid WEBSUB_HOST_CONCURRENCY=${JSON.stringify(String(e.WEBSUB_HOST_CONCURRENCY))}: must not exceed WEBSUB_CONCURRENCY (${e.WEBSUB_CONCURRENCY})`,
    );
  }
  if (e.METRICS_PORT !== undefined && e.METRICS_PORT !== 0 && e.METRICS_PORT === e.PORT) {
    throw configError(`invalid METRICS_PORT="${e.METRICS_PORT}": must differ from PORT`);
  }
  // Unset, the per-host share follows a lower WEBSUB_CONCURRENCY.
  const hostConcurrency = Math.min(e.WEBSUB_HOST_CONCURRENCY, e.WEBSUB_CONCURRENCY);
  return Object.freeze({
    port: e.PORT,
    host: e.HOST,
    baseUrl,
    databaseUrl: e.DATABASE_URL,
    sampleData: (e.SAMPLE_DATA ?? (e.NODE_ENV === 'production' ? 'off' : 'on')) === 'on',
    startedByNpm: env.npm_lifecycle_event !== undefined,
    logLevel: e.LOG_LEVEL,
    dataPollMs: e.DATA_POLL_MS,
    healthzStaleMs: e.HEALTHZ_STALE_SECONDS * 1000,
    responseCacheEntries: e.RESPONSE_CACHE_ENTRIES,
    socketTimeoutMs: e.SOCKET_TIMEOUT_MS,
    sinceMaxStreams: e.SINCE_MAX_STREAMS,
    sinceMinRate: Object.freeze({
      bytes: e.SINCE_MIN_RATE_BYTES,
      windowMs: e.SINCE_MIN_RATE_WINDOW_MS,
    }),
    mcpAllowedOrigins: e.MCP_ALLOWED_ORIGINS ?? [new URL(baseUrl).origin],
    mcpMaxBodyBytes: e.MCP_MAX_BODY_BYTES,
    embedAllowedOrigins: Object.freeze(e.EMBED_ALLOWED_ORIGINS ?? ['*']),
    mcpInitializePerMin: e.MCP_INITIALIZE_PER_MIN,
    mcpSessionTtlSeconds: e.MCP_SESSION_TTL_SECONDS,
    mcpSessionSecret: e.MCP_SESSION_SECRET ?? null,
    mcpStreamsPerAddress: e.MCP_STREAMS_PER_ADDRESS,
    mcpStreamIdleSeconds: e.MCP_STREAM_IDLE_SECONDS,
    trustProxyCidrs: Object.freeze(e.TRUST_PROXY_CIDRS),
    sync: syncConfig(e),
    metrics:
      e.METRICS_PORT === undefined
        ? null
        : Object.freeze({ host: e.METRICS_HOST, port: e.METRICS_PORT }),
    websub: Object.freeze({
      callbackAllowCidrs: Object.freeze(e.WEBSUB_CALLBACK_ALLOW_CIDRS),
      rateLimitPerMin: e.WEBSUB_RATE_LIMIT_PER_MIN,
      timeoutMs: e.WEBSUB_TIMEOUT_MS,
      retryDelaysMs: Object.freeze(e.WEBSUB_RETRY_DELAYS_MS),
      concurrency: e.WEBSUB_CONCURRENCY,
      hostConcurrency,
      maxSubscriptionsPerHost: e.WEBSUB_MAX_SUBSCRIPTIONS_PER_HOST,
      lease: Object.freeze(lease),
    }),
  });
}
