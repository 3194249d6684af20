import { readFileSync } from 'node:fs';
import { z } from 'zod';

/**
 * The review sources' variables (docs/sources.md): their schema (part of `EnvSchema`) and the
 * settings made from them, with the rules one variable's schema cannot say (a GBP location needs
 * its client and refresh token; a secret comes from its variable or its `*_FILE`).
 */

/** An absolute http(s) URL; an operator's base URL is trusted, `http` included (tests). */
const httpUrl = z
  .string()
  .refine(
    (s) => URL.canParse(s) && /^https?:$/.test(new URL(s).protocol),
    'must be an absolute http(s) URL',
  )
  .transform((s) => s.replace(/\/+$/, ''));

const hours = z
  .string()
  .regex(/^\d+$/, 'must be a positive integer')
  .transform(Number)
  .refine((n) => n >= 1 && n <= 8760, 'must be from 1 to 8760');

export const SOURCE_ENV_SHAPE = {
  GBP_LOCATION: z
    .string()
    .regex(
      /^accounts\/[^/\s]+\/locations\/[^/\s]+$/,
      'must be accounts/{account}/locations/{location}',
    )
    .optional(),
  GBP_CLIENT_ID: z.string().optional(),
  GBP_CLIENT_SECRET: z.string().optional(),
  GBP_CLIENT_SECRET_FILE: z.string().optional(),
  GBP_REFRESH_TOKEN: z.string().optional(),
  GBP_REFRESH_TOKEN_FILE: z.string().optional(),
  GBP_API_BASE_URL: httpUrl.default('https://mybusiness.googleapis.com'),
  GBP_TOKEN_URL: httpUrl.default('https://oauth2.googleapis.com/token'),
  GBP_FULL_SYNC_HOURS: hours.default(24),
};

/** Variables whose values no message shows. */
export const SOURCE_SECRETS = ['GBP_CLIENT_SECRET', 'GBP_REFRESH_TOKEN'] as const;

/** Google Business Profile, as `GBP_*` configure it. */
export interface GbpSettings {
  /** `accounts/{a}/locations/{l}`. */
  readonly location: string;
  readonly clientId: string;
  readonly clientSecret: string;
  readonly refreshToken: string;
  readonly apiBaseUrl: string;
  readonly tokenUrl: string;
  /** A full pass at most this often (`GBP_FULL_SYNC_HOURS`). */
  readonly fullSyncMs: number;
}

type SourceEnv = z.output<z.ZodObject<typeof SOURCE_ENV_SHAPE>>;

/** The variables a GBP location needs; none may be set without it. */
const CREDENTIALS = [
  'GBP_CLIENT_ID',
  'GBP_CLIENT_SECRET',
  'GBP_CLIENT_SECRET_FILE',
  'GBP_REFRESH_TOKEN',
  'GBP_REFRESH_TOKEN_FILE',
] as const;

/** The start of a refusal that blames the location for what it lacks. */
const location = (e: SourceEnv): string => `invalid GBP_LOCATION=${JSON.stringify(e.GBP_LOCATION)}`;

/** A secret from its variable or the file its `*_FILE` names (trimmed), never both. */
function secret(
  e: SourceEnv,
  name: (typeof SOURCE_SECRETS)[number],
  fail: (message: string) => Error,
): string {
  const value = e[name];
  const file = e[`${name}_FILE`];
  if (value !== undefined && file !== undefined) {
    throw fail(
      `invalid ${name}_FILE=${JSON.stringify(file)}: set ${name} or ${name}_FILE, not both`,
    );
  }
  if (value !== undefined) return value;
  if (file === undefined) throw fail(`${location(e)}: needs ${name} or ${name}_FILE`);
  let text: string;
  try {
    text = readFileSync(file, 'utf8').trim();
  } catch (err) {
    const code = (err as { code?: string }).code ?? 'unreadable';
    throw fail(`invalid ${name}_FILE=${JSON.stringify(file)}: cannot be read (${code})`);
  }
  if (text === '') throw fail(`invalid ${name}_FILE=${JSON.stringify(file)}: the file is empty`);
  return text;
}

/** The GBP settings, or null when `GBP_LOCATION` is unset (then no other `GBP_*` secret may be). */
export function gbpSettings(e: SourceEnv, fail: (message: string) => Error): GbpSettings | null {
  if (e.GBP_LOCATION === undefined) {
    const stray = CREDENTIALS.find((k) => e[k] !== undefined);
    if (stray !== undefined) throw fail(`invalid ${stray}=<set>: needs GBP_LOCATION too`);
    return null;
  }
  if (e.GBP_CLIENT_ID === undefined) throw fail(`${location(e)}: needs GBP_CLIENT_ID`);
  return {
    location: e.GBP_LOCATION,
    clientId: e.GBP_CLIENT_ID,
    clientSecret: secret(e, 'GBP_CLIENT_SECRET', fail),
    refreshToken: secret(e, 'GBP_REFRESH_TOKEN', fail),
    apiBaseUrl: e.GBP_API_BASE_URL,
    tokenUrl: e.GBP_TOKEN_URL,
    fullSyncMs: e.GBP_FULL_SYNC_HOURS * 3_600_000,
  };
}
