import { z } from 'zod';

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

const port = z
  .string()
  .regex(/^\d{1,5}$/, 'must be an integer from 0 to 65535')
  .transform(Number)
  .refine((n) => n <= 65535, 'must be an integer from 0 to 65535');

const onOff = z.enum(['on', 'off'], { message: 'must be "on" or "off"' });

const baseUrl = z
  .string()
  .refine((s) => {
    try {
      const u = new URL(s);
      return (u.protocol === 'http:' || u.protocol === 'https:') && !u.search && !u.hash;
    } catch {
      return false;
    }
  }, 'must be an absolute http(s) URL without query or fragment')
  .transform((s) => s.replace(/\/+$/, ''));

const databaseUrl = z
  .string()
  .refine(
    (s) => /^sqlite:.+/.test(s),
    'must be sqlite:<path> (postgres:// is not supported by this version)',
  );

const positiveInt = (max: number) =>
  z
    .string()
    .regex(/^\d+$/, 'must be a positive integer')
    .transform(Number)
    .refine((n) => n >= 1 && n <= max, `must be from 1 to ${max}`);

/** The environment variables the service reads, with their defaults. The README documents each. */
export const EnvSchema = z.object({
  PORT: port.default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  BASE_URL: baseUrl.optional(),
  DATABASE_URL: databaseUrl.default('sqlite:./data/reviews.db'),
  SAMPLE_DATA: onOff.default('on'),
  LOG_LEVEL: z
    .enum(LOG_LEVELS, { message: `must be one of ${LOG_LEVELS.join(', ')}` })
    .default('info'),
  DATA_POLL_MS: positiveInt(60_000).default(500),
  RESPONSE_CACHE_ENTRIES: z
    .string()
    .regex(/^\d+$/, 'must be a non-negative integer')
    .transform(Number)
    .default(2000),
  MCP_ALLOWED_ORIGINS: z
    .string()
    .transform((s) =>
      s
        .split(',')
        .map((o) => o.trim())
        .filter(Boolean),
    )
    .refine(
      (list) => list.every((o) => o === '*' || /^https?:\/\/[^/?#\s]+$/.test(o)),
      'must be a comma-separated list of origins like https://app.example.com (or *)',
    )
    .optional(),
  MCP_MAX_BODY_BYTES: positiveInt(16 * 1024 * 1024).default(65_536),
  MCP_SESSION_TTL_SECONDS: positiveInt(30 * 86_400).default(86_400),
  MCP_SESSION_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
});

export interface Config {
  readonly port: number;
  readonly host: string;
  /** No trailing slash; every absolute URL the service emits starts with it. */
  readonly baseUrl: string;
  readonly databaseUrl: string;
  readonly sampleData: boolean;
  readonly logLevel: (typeof LOG_LEVELS)[number];
  /** How often the service checks the store for changes committed by other processes. */
  readonly dataPollMs: number;
  /** Search and since responses kept per data version (0 turns the cache off). */
  readonly responseCacheEntries: number;
  /** Origins allowed to call /mcp from a browser (requests without Origin are always allowed). */
  readonly mcpAllowedOrigins: readonly string[];
  readonly mcpMaxBodyBytes: number;
  readonly mcpSessionTtlSeconds: number;
  /** When unset, a secret is generated once and kept in the store, shared by every instance. */
  readonly mcpSessionSecret: string | null;
}

/** A configuration problem, reported as one line at start-up. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

/**
 * Parses and validates the environment once. Empty variables count as unset. Throws a
 * `ConfigError` naming the first bad variable.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const relevant: Record<string, string> = {};
  for (const key of Object.keys(EnvSchema.shape)) {
    const value = env[key];
    if (value !== undefined && value !== '') relevant[key] = value;
  }
  const parsed = EnvSchema.safeParse(relevant);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const key = String(issue.path[0]);
    throw new ConfigError(
      `invalid ${key}=${JSON.stringify(relevant[key] ?? '')}: ${issue.message}`,
    );
  }
  const e = parsed.data;
  const baseUrl = e.BASE_URL ?? `http://localhost:${e.PORT}`;
  return Object.freeze({
    port: e.PORT,
    host: e.HOST,
    baseUrl,
    databaseUrl: e.DATABASE_URL,
    sampleData: e.SAMPLE_DATA === 'on',
    logLevel: e.LOG_LEVEL,
    dataPollMs: e.DATA_POLL_MS,
    responseCacheEntries: e.RESPONSE_CACHE_ENTRIES,
    mcpAllowedOrigins: e.MCP_ALLOWED_ORIGINS ?? [new URL(baseUrl).origin],
    mcpMaxBodyBytes: e.MCP_MAX_BODY_BYTES,
    mcpSessionTtlSeconds: e.MCP_SESSION_TTL_SECONDS,
    mcpSessionSecret: e.MCP_SESSION_SECRET ?? null,
  });
}
