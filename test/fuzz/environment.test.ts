import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONFIG_INVALID, EnvSchema, loadConfig, loadEnv, type Config } from '../../src/config.js';
import { isServiceError, type ServiceError } from '../../src/platform/errors.js';
import { freePort } from '../helpers/ports.js';
import { seedStore } from '../helpers/service.js';
import { testBusiness, testReviews } from '../helpers/fixtures.js';
import { anyText, mutated } from './helpers/arbitraries.js';
import { checkBoundary, noteOutcome, timeoutOf } from './helpers/settings.js';

/** A configuration error (`CONFIG_INVALID`). */
const configInvalid = expect.objectContaining({ name: 'ServiceError', code: CONFIG_INVALID });

/** Runs in `npm run test:slow` (fixed seed); `npm run fuzz` runs FUZZ_RUNS of each. */
const CONFIG_RUNS = 1000;
const STARTUP_RUNS = 6;

const MAIN = join(import.meta.dirname, '../../dist/src/main.js');
const KEYS = Object.keys(EnvSchema.shape) as (keyof typeof EnvSchema.shape)[];

/** Valid values of every variable (the README's table); typed so that a new variable needs some. */
const VALID: Record<(typeof KEYS)[number], readonly string[]> = {
  PORT: ['3000', '0', '65535', '8080'],
  HOST: ['127.0.0.1', 'localhost', '::1'],
  BASE_URL: ['https://reviews.example.com', 'http://localhost:3000/', 'https://x.example/base/'],
  DATABASE_URL: [
    'sqlite:./data/reviews.db',
    'sqlite:/tmp/x.db',
    'postgres://user:pw@db.internal:5432/reviews',
    'postgresql://localhost/reviews?pool_size=20',
  ],
  NODE_ENV: ['production', 'development', 'test'],
  SAMPLE_DATA: ['on', 'off'],
  LOG_LEVEL: ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'],
  DATA_POLL_MS: ['500', '1', '60000'],
  HEALTHZ_STALE_SECONDS: ['120', '0', '86400'],
  RESPONSE_CACHE_ENTRIES: ['0', '2000'],
  MCP_ALLOWED_ORIGINS: ['*', 'https://app.example.com', 'https://a.example, http://b.example:8080'],
  EMBED_ALLOWED_ORIGINS: [
    '*',
    'https://www.example.com',
    'https://a.example,https://*.example.org',
  ],
  // Only an ephemeral port: the start-up runs must not collide with anything listening.
  METRICS_PORT: ['0'],
  METRICS_HOST: ['127.0.0.1', '::1', 'localhost'],
  SOCKET_TIMEOUT_MS: ['60000', '1000', '3600000'],
  SINCE_MAX_STREAMS: ['128', '1', '100000'],
  SINCE_MIN_RATE_BYTES: ['32768', '1', '1073741824'],
  SINCE_MIN_RATE_WINDOW_MS: ['30000', '1000', '3600000'],
  MCP_MAX_BODY_BYTES: ['65536', '1', '16777216'],
  MCP_INITIALIZE_PER_MIN: ['60', '1', '1000000'],
  MCP_SESSION_TTL_SECONDS: ['86400', '1', '2592000'],
  MCP_SESSION_SECRET: ['x'.repeat(32), 'a secret that is long enough, surely'],
  MCP_STREAMS_PER_ADDRESS: ['32', '1', '100000'],
  MCP_STREAM_IDLE_SECONDS: ['300', '1', '86400'],
  WEBSUB_CALLBACK_ALLOW_CIDRS: ['127.0.0.0/8,::1/128', '10.0.0.1', ''],
  TRUST_PROXY_CIDRS: ['127.0.0.1/32', '10.0.0.0/8, fd00::/8', ''],
  WEBSUB_RATE_LIMIT_PER_MIN: ['60', '1'],
  WEBSUB_TIMEOUT_MS: ['10000', '100', '600000'],
  WEBSUB_RETRY_DELAYS_MS: ['10000,60000', '0', '50,50'],
  WEBSUB_CONCURRENCY: ['64', '1', '10000'],
  WEBSUB_HOST_CONCURRENCY: ['8', '1', '1000'],
  WEBSUB_MAX_SUBSCRIPTIONS_PER_HOST: ['1000', '1'],
  WEBSUB_LEASE_MIN_SECONDS: ['3600', '1'],
  WEBSUB_LEASE_DEFAULT_SECONDS: ['864000', '3600'],
  WEBSUB_LEASE_MAX_SECONDS: ['2592000', '31536000'],
  SYNC_INTERVAL_SECONDS: ['900', '0', '604800'],
  SYNC_URLS: [
    'https://exports.example.com/reviews.csv',
    'https://a.example/x.json,http://10.0.0.5/e',
  ],
  SYNC_ALLOW_CIDRS: ['10.0.0.0/8', '127.0.0.1/32,::1/128', ''],
  GBP_LOCATION: ['accounts/1234/locations/5678'],
  GBP_CLIENT_ID: ['1234-abc.apps.googleusercontent.com'],
  GBP_CLIENT_SECRET: ['a-client-secret'],
  GBP_CLIENT_SECRET_FILE: ['/run/secrets/gbp-client-secret'],
  GBP_REFRESH_TOKEN: ['1//a-refresh-token'],
  GBP_REFRESH_TOKEN_FILE: ['/run/secrets/gbp-refresh-token'],
  GBP_API_BASE_URL: ['https://mybusiness.googleapis.com', 'http://127.0.0.1:8080/'],
  GBP_TOKEN_URL: ['https://oauth2.googleapis.com/token', 'http://127.0.0.1:8080/token'],
  GBP_FULL_SYNC_HOURS: ['24', '1', '8760'],
};

/**
 * A near miss of a variable: a mutated valid value, a number past its range, or anything; never
 * NUL, which an environment variable cannot hold (spawn refuses it before the service runs).
 */
const wrong = (key: (typeof KEYS)[number]): fc.Arbitrary<string> =>
  fc
    .oneof(
      { weight: 3, arbitrary: fc.constantFrom(...VALID[key]!).chain(mutated) },
      {
        weight: 1,
        arbitrary: fc.constantFrom(
          '',
          '-1',
          '0',
          '99999999999999999999',
          '1.5',
          ' 1',
          '1e3',
          '0x10',
        ),
      },
      { weight: 1, arbitrary: anyText(60) },
    )
    // An environment variable holds bytes: UTF-8 without NUL. A lone surrogate reaches the
    // process as U+FFFD (spawn encodes it so), so the near miss is made of what really arrives.
    .map((s) => Buffer.from(s.replace(/\0/g, ''), 'utf8').toString('utf8'));

/**
 * An environment: each variable unset or set to a valid value (the combinations can still
 * disagree: lease bounds, concurrencies), then up to three variables set to a near miss.
 */
const environmentWith = (maxMisses: number) =>
  fc
    .tuple(
      fc.record(
        Object.fromEntries(
          KEYS.map((k) => [
            k,
            fc.oneof(
              { weight: 3, arbitrary: fc.constant(undefined) },
              { weight: 1, arbitrary: fc.constantFrom(...VALID[k]!) },
            ),
          ]),
        ) as Record<string, fc.Arbitrary<string | undefined>>,
      ),
      fc.array(
        fc.constantFrom(...KEYS).chain((k) => wrong(k).map((v): [string, string] => [k, v])),
        { maxLength: maxMisses },
      ),
    )
    .map(([base, misses]) => ({ ...base, ...Object.fromEntries(misses) }));
const environment = environmentWith(3);

function defined(env: Record<string, string | undefined>): Record<string, string> {
  return Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined)) as Record<
    string,
    string
  >;
}

/** The documented ranges and derivations hold for every configuration that loads. */
function expectSound(c: Config, env: Record<string, string>): void {
  expect(Object.isFrozen(c) && Object.isFrozen(c.websub) && Object.isFrozen(c.websub.lease)).toBe(
    true,
  );
  expect(Number.isInteger(c.port) && c.port >= 0 && c.port <= 65535).toBe(true);
  const base = new URL(c.baseUrl);
  expect(['http:', 'https:']).toContain(base.protocol);
  expect(base.search + base.hash).toBe('');
  expect(c.baseUrl.endsWith('/')).toBe(false);
  if (!env.BASE_URL) expect(c.baseUrl).toBe(`http://localhost:${c.port}`);
  expect(c.databaseUrl).toMatch(/^(sqlite:.|postgres(ql)?:\/\/.)/i);
  expect(c.embedAllowedOrigins.length).toBeGreaterThan(0);
  expect(c.host.length).toBeGreaterThan(0);
  expect(c.dataPollMs >= 1 && c.dataPollMs <= 60_000).toBe(true);
  expect(c.healthzStaleMs % 1000 === 0 && c.healthzStaleMs <= 86_400_000).toBe(true);
  expect(Number.isInteger(c.responseCacheEntries) && c.responseCacheEntries >= 0).toBe(true);
  expect(c.mcpAllowedOrigins.length).toBeGreaterThan(0);
  expect(c.mcpMaxBodyBytes >= 1 && c.mcpMaxBodyBytes <= 16 * 1024 * 1024).toBe(true);
  expect(c.mcpInitializePerMin >= 1 && c.mcpInitializePerMin <= 1_000_000).toBe(true);
  expect(c.mcpStreamsPerAddress >= 1 && c.mcpStreamsPerAddress <= 100_000).toBe(true);
  expect(c.mcpStreamIdleSeconds >= 1 && c.mcpStreamIdleSeconds <= 86_400).toBe(true);
  expect(Object.isFrozen(c.trustProxyCidrs)).toBe(true);
  if (c.mcpSessionSecret !== null) expect(c.mcpSessionSecret.length).toBeGreaterThanOrEqual(32);
  const w = c.websub;
  expect(w.timeoutMs >= 100 && w.timeoutMs <= 600_000).toBe(true);
  expect(w.retryDelaysMs.length).toBeLessThanOrEqual(20);
  for (const d of w.retryDelaysMs) expect(d >= 0 && d <= 86_400_000).toBe(true);
  expect(w.hostConcurrency).toBeLessThanOrEqual(w.concurrency);
  expect(w.lease.minSeconds).toBeLessThanOrEqual(w.lease.defaultSeconds);
  expect(w.lease.defaultSeconds).toBeLessThanOrEqual(w.lease.maxSeconds);
  expect(w.lease.maxSeconds).toBeLessThanOrEqual(31_536_000);
}

/** A refusal is one line naming a variable that was set. */
function expectRefusal(err: unknown, env: Record<string, string>): string {
  expect(isServiceError(err, CONFIG_INVALID), String(err)).toBe(true);
  const message = (err as Error).message;
  expect(message).not.toContain('\n');
  const key = /^invalid ([A-Z_]+)=/.exec(message)?.[1];
  expect(key, message).toBeDefined();
  expect(KEYS).toContain(key);
  expect(env[key!], `${key} was set (empty counts as unset)`).toBeTruthy();
  return key!;
}

describe('fuzz: the environment (loadConfig)', () => {
  it(
    'loads a sound, frozen configuration or refuses in one line naming a variable that was set; the import reads DATABASE_URL alone',
    async () => {
      await checkBoundary(
        'environment (loadConfig)',
        fc.property(environment, (raw) => {
          const env = defined(raw);
          let config: Config | null = null;
          try {
            config = loadConfig(env);
          } catch (err) {
            noteOutcome('refused');
            const key = expectRefusal(err, env);
            if (key === 'DATABASE_URL')
              expect(() => loadEnv(['DATABASE_URL'], env)).toThrow(configInvalid);
          }
          if (config) {
            noteOutcome('loaded');
            expectSound(config, env);
          }
          // The import's own reading: only DATABASE_URL, whatever else is wrong.
          let databaseUrl: string | null = null;
          try {
            databaseUrl = loadEnv(['DATABASE_URL'], env).DATABASE_URL;
          } catch (err) {
            expect(expectRefusal(err, env)).toBe('DATABASE_URL');
          }
          if (config) expect(databaseUrl).toBe(config.databaseUrl);
        }),
        CONFIG_RUNS,
      );
    },
    timeoutOf(60_000),
  );
});

/** The outcome of starting `node dist/src/main.js` with an environment. */
interface Started {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** It answered GET /healthz (and was then stopped with SIGTERM). */
  ready: boolean;
}

/**
 * Starts the service as its own process, waits until it answers /healthz on its HOST and PORT or
 * exits, then stops it with SIGTERM. A start that neither answers nor exits within a minute is a
 * hang (a failure, not a measure of speed).
 */
function start(env: Record<string, string>, probe: string | null): Promise<Started> {
  const child = spawn(process.execPath, [MAIN], {
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  let ready = false;
  const exited = new Promise<Started>((resolve) =>
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr, ready })),
  );
  let done = false;
  void exited.then(() => (done = true));
  const poll = async (): Promise<void> => {
    const started = Date.now();
    while (!done && Date.now() - started < 60_000) {
      if (probe) {
        try {
          const res = await fetch(`${probe}/healthz`, { signal: AbortSignal.timeout(2_000) });
          if (res.status === 200) {
            ready = true;
            child.kill('SIGTERM');
            return;
          }
        } catch {
          // not listening yet
        }
      }
      await new Promise((r) => setTimeout(r, 50));
    }
    if (!done) child.kill('SIGKILL');
  };
  void poll();
  return exited.then((s) => ({ ...s, ready }));
}

/** Hosts and ports a deployment may get wrong; the loopback ones are where it can start. */
const HOSTS = [
  { host: '127.0.0.1', url: '127.0.0.1' },
  // Resolved by the probe as by the service (127.0.0.1 or ::1, whichever comes first).
  { host: 'localhost', url: 'localhost' },
  { host: '::1', url: '[::1]' },
  { host: 'nonexistent.invalid', url: null },
  { host: '999.1.1.1', url: null },
  { host: '::g', url: null },
  { host: '192.0.2.1', url: null },
  { host: '%%', url: null },
];

let dir: string;
let seeded: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'fuzz-startup-'));
  seeded = join(dir, 'seeded.db');
  await seedStore(`sqlite:${seeded}`, testBusiness(), testReviews(5));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const startup = fc.record({
  env: environmentWith(1),
  host: fc.oneof(
    { weight: 4, arbitrary: fc.constant(0) },
    { weight: 3, arbitrary: fc.integer({ min: 0, max: HOSTS.length - 1 }) },
  ),
  port: fc.oneof(
    { weight: 6, arbitrary: fc.constant(null) },
    { weight: 1, arbitrary: fc.constantFrom('eighty', '70000', '-1', ' 80', 'in use') },
  ),
  store: fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom('seeded', 'fresh') },
    { weight: 1, arbitrary: fc.constantFrom('a folder', 'not sqlite', 'postgres') },
  ),
});

describe('fuzz: the environment at start-up (node dist/src/main.js)', () => {
  it(
    'starts and answers, or stops in one line with exit code 78; never an unexpected error, never a hang',
    async () => {
      let n = 0;
      await checkBoundary(
        'environment (process start-up)',
        fc.asyncProperty(startup, async (s) => {
          const port = await freePort();
          const { host, url } = HOSTS[s.host]!;
          const databaseUrl = {
            seeded: `sqlite:${seeded}`,
            fresh: `sqlite:${join(dir, `fresh-${n++}`, 'reviews.db')}`,
            'a folder': `sqlite:${dir}`,
            'not sqlite': `sqlite:${MAIN}`,
            postgres: 'postgres://localhost/reviews',
          }[s.store];
          const env: Record<string, string> = {
            ...defined(s.env),
            HOST: host,
            PORT: s.port === null || s.port === 'in use' ? String(port) : s.port,
            DATABASE_URL: databaseUrl,
            // Loading the sample dealership takes seconds; it has tests of its own.
            SAMPLE_DATA: 'off',
          };
          // A port another process holds.
          const holder =
            s.port === 'in use'
              ? (await import('node:net')).createServer().listen(port, '127.0.0.1')
              : null;
          if (holder) await new Promise((r) => holder.once('listening', r));
          let verdict: ServiceError | null = null;
          try {
            loadConfig(env);
          } catch (err) {
            verdict = err as ServiceError;
          }
          // The port is held on 127.0.0.1 only: on ::1 the service may start, and is probed.
          const probe = url ? `http://${url}:${env.PORT}` : null;
          const run = await start(env, verdict ? null : probe);
          holder?.close();
          noteOutcome(run.ready ? 'ready' : `exit ${run.code}`);
          const what = `exit ${run.code} ${run.signal}\n${run.stderr}`;
          expect(run.signal, `a hang: ${what}`).not.toBe('SIGKILL');
          expect(run.stderr, what).not.toMatch(/unexpected error|\n\s+at /);
          if (verdict) {
            expect(run.code, what).toBe(78);
            expect(run.stdout).toBe('');
            expect(run.stderr).toBe(`dealer-reviews: ${verdict.message}\n`);
          } else if (run.ready) {
            expect(run.code, `a graceful stop: ${what}`).toBe(0);
          } else {
            expect(run.code, what).toBe(78);
            const lines = run.stderr.trim().split('\n');
            expect(lines, what).toHaveLength(1);
            expect(lines[0]).toMatch(/^dealer-reviews: /);
          }
        }),
        STARTUP_RUNS,
      );
    },
    timeoutOf(120_000),
  );
});
