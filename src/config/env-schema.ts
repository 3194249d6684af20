import { isIP } from 'node:net';
import { z } from 'zod';
import { databaseUrlProblem } from '../store/index.js';
import { SOURCE_ENV_SHAPE } from './sources.js';

/**
 * The environment variables the service reads, as one zod schema: each variable's rule, message
 * and default. `src/config.ts` parses `process.env` with it into the frozen `Config`.
 */

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

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

/** `sqlite:<path>`, or a PostgreSQL URL (the store's rules: `databaseUrlProblem`). */
const databaseUrl = z.string().superRefine((s, ctx) => {
  const problem = databaseUrlProblem(s);
  if (problem !== null) ctx.addIssue({ code: 'custom', message: problem });
});

/** A whole number from `min` (0 or more) to `max`, written in digits. */
const intFrom = (min: number, max: number) => {
  const range = min === 0 ? `must be an integer from 0 to ${max}` : `must be from ${min} to ${max}`;
  return z
    .string()
    .regex(/^\d+$/, min === 0 ? range : 'must be a positive integer')
    .transform(Number)
    .refine((n) => n >= min && n <= max, range);
};
const positiveInt = (max: number) => intFrom(1, max);

/** No lease may be longer than a year: WebSub forbids perpetual leases. */
const MAX_LEASE_SECONDS = 31_536_000;

function isCidr(entry: string): boolean {
  const [address = '', prefix, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

/** A comma-separated list, its entries trimmed, the empty ones dropped. */
const commaList = z.string().transform((s) =>
  s
    .split(',')
    .map((e) => e.trim())
    .filter((e) => e !== ''),
);

const cidrList = commaList.refine(
  (list) => list.every(isCidr),
  'must be a comma-separated list of IP addresses or CIDR ranges (10.0.0.0/8, ::1/128)',
);

const retryDelays = z
  .string()
  .transform((s) => s.split(',').map((e) => e.trim()))
  .refine(
    (list) =>
      list.length <= 20 && list.every((e) => /^\d{1,8}$/.test(e) && Number(e) <= 86_400_000),
    'must be a comma-separated list of at most 20 delays in milliseconds (0 to 86400000 each)',
  )
  .transform((list) => list.map(Number));

/** The environment variables the service reads, with their defaults. The README documents each. */
export const EnvSchema = z.object({
  PORT: port.default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  BASE_URL: baseUrl.optional(),
  DATABASE_URL: databaseUrl.default('sqlite:./data/reviews.db'),
  // `production`: an empty store stays empty unless SAMPLE_DATA=on says otherwise (a typo such as
  // `prodution` would otherwise load the sample into a live store without a word).
  NODE_ENV: z
    .enum(['production', 'development', 'test'], {
      message: 'must be production, development or test',
    })
    .optional(),
  // Unset: on, except with NODE_ENV=production (src/config.ts).
  SAMPLE_DATA: onOff.optional(),
  LOG_LEVEL: z
    .enum(LOG_LEVELS, { message: `must be one of ${LOG_LEVELS.join(', ')}` })
    .default('info'),
  DATA_POLL_MS: positiveInt(60_000).default(500),
  HEALTHZ_STALE_SECONDS: intFrom(0, 86_400).default(120),
  RESPONSE_CACHE_ENTRIES: intFrom(0, 1_000_000).default(2000),
  MCP_ALLOWED_ORIGINS: commaList
    // A value that lists no origin (",", blanks) would shut out every browser without a word.
    .refine(
      (list) => list.length > 0 && list.every((o) => o === '*' || /^https?:\/\/[^/?#\s]+$/.test(o)),
      'must be a comma-separated list of origins like https://app.example.com (or *)',
    )
    .optional(),
  EMBED_ALLOWED_ORIGINS: commaList
    .refine(
      (list) =>
        list.length > 0 &&
        (list.join() === '*' ||
          list.every((o) => /^https?:\/\/(\*\.)?[A-Za-z0-9.-]+(:\d{1,5})?$/.test(o))),
      'must be * or a comma-separated list of origins like https://www.example.com (https://*.example.com for its subdomains)',
    )
    .optional(),
  // The Prometheus metrics' own listener (docs/metrics.md): off unless METRICS_PORT is set.
  METRICS_PORT: port.optional(),
  METRICS_HOST: z.string().min(1).default('127.0.0.1'),
  SOCKET_TIMEOUT_MS: intFrom(1000, 3_600_000).default(60_000),
  SINCE_MAX_STREAMS: positiveInt(100_000).default(128),
  SINCE_MIN_RATE_BYTES: positiveInt(1024 * 1024 * 1024).default(32 * 1024),
  SINCE_MIN_RATE_WINDOW_MS: intFrom(1000, 3_600_000).default(30_000),
  MCP_MAX_BODY_BYTES: positiveInt(16 * 1024 * 1024).default(65_536),
  MCP_INITIALIZE_PER_MIN: positiveInt(1_000_000).default(60),
  MCP_SESSION_TTL_SECONDS: positiveInt(30 * 86_400).default(86_400),
  MCP_SESSION_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  MCP_STREAMS_PER_ADDRESS: positiveInt(100_000).default(32),
  MCP_STREAM_IDLE_SECONDS: positiveInt(86_400).default(300),
  WEBSUB_CALLBACK_ALLOW_CIDRS: cidrList.default([]),
  TRUST_PROXY_CIDRS: cidrList.default([]),
  WEBSUB_RATE_LIMIT_PER_MIN: positiveInt(1_000_000).default(60),
  WEBSUB_TIMEOUT_MS: intFrom(100, 600_000).default(10_000),
  WEBSUB_RETRY_DELAYS_MS: retryDelays.default([10_000, 60_000, 300_000, 1_800_000]),
  WEBSUB_CONCURRENCY: positiveInt(10_000).default(64),
  WEBSUB_HOST_CONCURRENCY: positiveInt(1_000).default(8),
  WEBSUB_MAX_SUBSCRIPTIONS_PER_HOST: positiveInt(10_000_000).default(1_000),
  WEBSUB_LEASE_MIN_SECONDS: positiveInt(MAX_LEASE_SECONDS).default(3_600),
  WEBSUB_LEASE_DEFAULT_SECONDS: positiveInt(MAX_LEASE_SECONDS).default(864_000),
  WEBSUB_LEASE_MAX_SECONDS: positiveInt(MAX_LEASE_SECONDS).default(2_592_000),
  // Every configured review source runs this often (docs/sources.md); 0 turns scheduled sync off.
  SYNC_INTERVAL_SECONDS: intFrom(0, 7 * 86_400).default(900),
  // Watched export URLs: comma-separated http(s) URLs (http only to SYNC_ALLOW_CIDRS).
  SYNC_URLS: commaList
    .refine(
      (list) =>
        list.length <= 20 &&
        list.every((u) => URL.canParse(u) && /^https?:$/.test(new URL(u).protocol)),
      'must be a comma-separated list of at most 20 absolute https URLs',
    )
    .default([]),
  SYNC_ALLOW_CIDRS: cidrList.default([]),
  // Google Business Profile (src/config/sources.ts).
  ...SOURCE_ENV_SHAPE,
});
