import { createRequire } from 'node:module';
import type pg from 'pg';

let driver: typeof pg | undefined;

/**
 * The PostgreSQL driver, loaded at its first use: a process or thread on a SQLite store (the
 * default, every command on one, and each of the service's threads) never loads it, which saves
 * each about 0.1 s of CPU at start.
 */
export function postgresDriver(): typeof pg {
  driver ??= createRequire(import.meta.url)('pg') as typeof pg;
  return driver;
}

/** Connections each PostgreSQL store keeps at most, unless the URL says `?pool_size=N`. */
export const DEFAULT_POOL_SIZE = 10;
export const MAX_POOL_SIZE = 100;

const SCHEME = /^postgres(ql)?:\/\//i;
/** Node's URL parser wants a host; libpq's URLs may leave it out (`user@/db?host=/socket`). */
const NO_HOST = '@___no_host___/';

/** True for a `postgres://` or `postgresql://` URL (any other is not PostgreSQL's). */
export function isPostgresUrl(url: string): boolean {
  return SCHEME.test(url);
}

function parseUrl(url: string): URL | null {
  try {
    return new URL(url.replace('@/', NO_HOST));
  } catch {
    return null;
  }
}

function unparse(u: URL): string {
  return u.toString().replace(NO_HOST, '@/');
}

/**
 * The URL for logs and messages: the password (in the user info, or a `password` or
 * `sslpassword` parameter) is replaced by `***`; a URL that cannot be parsed shows its scheme only.
 */
export function maskPostgresUrl(url: string): string {
  const u = parseUrl(url);
  if (!u) return `${url.split(':')[0]}://***`;
  if (u.password) u.password = '***';
  for (const key of [...u.searchParams.keys()]) {
    if (/password/i.test(key)) u.searchParams.set(key, '***');
  }
  return unparse(u).replaceAll('%2A%2A%2A', '***');
}

export interface PostgresTarget {
  /** The URL the driver gets (the store's own `pool_size` parameter taken out). */
  connectionString: string;
  poolSize: number;
  /** The URL with its password masked. */
  location: string;
}

/**
 * The `sslmode`s the store accepts, with libpq's meaning (the driver reads them so through its
 * `uselibpqcompat=true`, which the store adds): `disable` (no TLS), `require` (TLS, the server's
 * certificate not checked, unless `sslrootcert` names a CA file: then as `verify-ca`), `verify-ca`
 * (TLS, the certificate signed by the CA of `sslrootcert`, which it needs), `verify-full` (TLS, the
 * certificate signed by `sslrootcert`'s CA, or without it by one Node.js trusts, and for the host
 * name). libpq's `allow`
 * and `prefer` fall back to plain TCP, which the driver cannot: refused, as is the driver's own
 * `no-verify` (say `require`). Without `sslmode`, the connection is not encrypted.
 */
const SSL_MODES = new Set(['disable', 'require', 'verify-ca', 'verify-full']);

/** What is wrong with the URL's `sslmode` (and `sslrootcert`), or null. */
function sslProblem(params: URLSearchParams): string | null {
  const mode = params.get('sslmode');
  const compat = params.get('uselibpqcompat');
  if (compat !== null && compat !== 'true') {
    return 'uselibpqcompat may only be true (the store reads sslmode as libpq does)';
  }
  if (mode === null) return null;
  if (mode === 'allow' || mode === 'prefer') {
    return `sslmode=${mode} is not supported (the driver cannot fall back to an unencrypted connection): use require or disable`;
  }
  if (!SSL_MODES.has(mode)) return 'sslmode must be disable, require, verify-ca or verify-full';
  if (mode === 'verify-ca' && !params.get('sslrootcert')) {
    return 'sslmode=verify-ca needs sslrootcert=<file of the CA certificate>';
  }
  return null;
}

/**
 * Reads a PostgreSQL `DATABASE_URL`: libpq's URL form (`postgres://user:password@host:port/db`,
 * with the parameters the driver reads: `sslmode` as above, `sslrootcert`, `application_name`,
 * `host` for a socket folder, ...), plus `pool_size` (1 to 100, default 10). A parameter given
 * twice is refused (which one would count?). Throws an `Error` with a one-line reason, never
 * showing the password.
 */
export function parsePostgresUrl(url: string): PostgresTarget {
  const u = SCHEME.test(url) ? parseUrl(url) : null;
  if (!u) throw new Error('must be a URL like postgres://user:password@host:5432/database');
  const names = [...u.searchParams.keys()];
  const twice = names.find((name, i) => names.indexOf(name) !== i);
  if (twice !== undefined) throw new Error(`the parameter ${twice} is given more than once`);
  const size = u.searchParams.get('pool_size');
  if (size !== null && !(/^\d{1,3}$/.test(size) && +size >= 1 && +size <= MAX_POOL_SIZE)) {
    throw new Error(`pool_size must be an integer from 1 to ${MAX_POOL_SIZE}`);
  }
  const ssl = sslProblem(u.searchParams);
  if (ssl !== null) throw new Error(ssl);
  // Cut out of the text as written: the rest reaches the driver byte for byte.
  let connectionString = url.replace(/([?&])pool_size=[^&#]*&?/, '$1').replace(/[?&](#|$)/, '$1');
  if (u.searchParams.has('sslmode') && !u.searchParams.has('uselibpqcompat')) {
    connectionString = connectionString.replace(
      /(#|$)/,
      `${connectionString.includes('?') ? '&' : '?'}uselibpqcompat=true$1`,
    );
  }
  return {
    connectionString,
    poolSize: size === null ? DEFAULT_POOL_SIZE : Number(size),
    location: maskPostgresUrl(url),
  };
}

const INT8 = 20;
const TIMESTAMPTZ = 1184;
let parseTimestamp: ((text: string) => Date) | undefined;

/**
 * How this store's connections read values (their own, not the driver's global table): BIGINT as
 * a JavaScript number (every BIGINT here, milliseconds, versions and ids, fits in 2^53, and a
 * value that would not fails the query instead of losing digits), and TIMESTAMPTZ as an RFC 3339
 * string in UTC with milliseconds, the form the store's interface uses. The driver reads
 * timestamps in PostgreSQL's default ISO `DateStyle`.
 */
const TYPES: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') => {
    if (oid === INT8) {
      return (text: string) => {
        const n = Number(text);
        if (!Number.isSafeInteger(n)) throw new RangeError(`BIGINT ${text} exceeds 2^53`);
        return n;
      };
    }
    if (oid === TIMESTAMPTZ) {
      const parse = (parseTimestamp ??= postgresDriver().types.getTypeParser(TIMESTAMPTZ) as (
        text: string,
      ) => Date);
      return (text: string) => parse(text).toISOString();
    }
    return postgresDriver().types.getTypeParser(oid, format);
  }) as typeof pg.types.getTypeParser,
};

const APPLICATION = 'dealer-reviews';

/** The settings of every connection a store opens, pooled or not. */
export function clientConfig(target: PostgresTarget): pg.ClientConfig {
  return {
    connectionString: target.connectionString,
    types: TYPES,
    // A parameter of the URL takes precedence.
    application_name: APPLICATION,
    // TCP keepalive probes after 10 s of silence (the system's default waits 2 hours): a pooled
    // connection to a vanished server is found out; the listening one has its own heartbeat.
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
    // Also how long a query waits for a free pooled connection.
    connectionTimeoutMillis: 10_000,
  };
}

/**
 * The store's pool. A pooled connection that breaks while idle (a server restart) is dropped by
 * the pool, which opens a new one for the next query: the error needs no other handling.
 */
export function createPool(target: PostgresTarget): pg.Pool {
  const pool = new (postgresDriver().Pool)({ ...clientConfig(target), max: target.poolSize });
  pool.on('error', () => undefined);
  return pool;
}

/** SQLSTATEs of a transaction that lost to a concurrent one: serialization failure, deadlock. */
const CONFLICTS = new Set(['40001', '40P01']);

/**
 * SQLSTATEs of a server that cannot be used for now, besides the connection exceptions (class
 * 08): an administrator's shutdown, a crash, a server still starting (57P01–57P03), no connection
 * slot left (53300).
 */
const UNREACHABLE_CODES = new Set(['57P01', '57P02', '57P03', '53300']);
const UNREACHABLE_SYSCALLS = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
]);
/** The driver's own errors for a lost or unobtainable connection (they carry no code). */
const UNREACHABLE_MESSAGES = [
  /^Connection terminated/,
  /^timeout exceeded when trying to connect/,
  /^Client has encountered a connection error/,
  /is not currently accepting connections/,
];

/**
 * True when `err` says the database server is away for now (a restart, a network fault, no
 * connection free), as opposed to a fault of the request or of the data: worth a 503 with
 * `Retry-After`, not a 500.
 */
export function isUnreachable(err: unknown): boolean {
  const e = err as { code?: unknown; message?: unknown } | null;
  const code = typeof e?.code === 'string' ? e.code : '';
  if (code.startsWith('08') || UNREACHABLE_CODES.has(code) || UNREACHABLE_SYSCALLS.has(code)) {
    return true;
  }
  const message = typeof e?.message === 'string' ? e.message : '';
  return UNREACHABLE_MESSAGES.some((re) => re.test(message));
}

/** True when `err` is PostgreSQL's answer to a conflict with a concurrent transaction. */
export function isConflict(err: unknown): boolean {
  return CONFLICTS.has((err as { code?: unknown } | null)?.code as string);
}
