import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONFIG_INVALID, loadConfig } from '../../src/config.js';

/** A configuration error (`CONFIG_INVALID`). */
const configInvalid = expect.objectContaining({ name: 'ServiceError', code: CONFIG_INVALID });

const MAIN = join(import.meta.dirname, '../../dist/src/main.js');
const BIN = join(import.meta.dirname, '../../dist/src/bin.js');

describe('configuration from the environment', () => {
  it('has documented defaults', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({
      port: 3000,
      host: '0.0.0.0',
      baseUrl: 'http://localhost:3000',
      databaseUrl: 'sqlite:./data/reviews.db',
      sampleData: true,
      logLevel: 'info',
    });
    expect(loadConfig({ PORT: '8080' }).baseUrl).toBe('http://localhost:8080');
    expect(loadConfig({ BASE_URL: 'https://reviews.example.com/' }).baseUrl).toBe(
      'https://reviews.example.com',
    );
  });

  it.each([
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['BASE_URL', 'ftp://x.example'],
    ['BASE_URL', 'not a url'],
    ['BASE_URL', 'https://x.example/?q=1'],
    ['DATABASE_URL', 'mysql://db'],
    ['SAMPLE_DATA', 'maybe'],
    ['LOG_LEVEL', 'loud'],
    ['DATA_POLL_MS', '0'],
  ])('rejects %s=%s naming the variable', (key, value) => {
    expect(() => loadConfig({ [key]: value })).toThrow(configInvalid);
    expect(() => loadConfig({ [key]: value })).toThrow(new RegExp(`^invalid ${key}=`));
  });

  it.each([
    ['MCP_ALLOWED_ORIGINS', ','],
    ['MCP_ALLOWED_ORIGINS', ' '],
    ['MCP_ALLOWED_ORIGINS', '\ufeff'],
    ['RESPONSE_CACHE_ENTRIES', '1000001'],
    ['RESPONSE_CACHE_ENTRIES', '1'.repeat(400)],
  ])('issue 15 (fuzz): refuses %s=%j naming the variable', (key, value) => {
    // A list of no origins shut every browser out of /mcp without a word, and a count of 400
    // digits was read as Infinity.
    expect(() => loadConfig({ [key]: value })).toThrow(new RegExp(`^invalid ${key}=`));
  });

  it('issue 15 (fuzz): the response cache takes 0 to 1,000,000 entries', () => {
    expect(loadConfig({ RESPONSE_CACHE_ENTRIES: '0' }).responseCacheEntries).toBe(0);
    expect(loadConfig({ RESPONSE_CACHE_ENTRIES: '1000000' }).responseCacheEntries).toBe(1_000_000);
    expect(loadConfig({ MCP_ALLOWED_ORIGINS: ' *, ' }).mcpAllowedOrigins).toEqual(['*']);
  });

  it('stops start-up with one clear line and a non-zero exit code', () => {
    expect(existsSync(MAIN), 'run `npm run build` first').toBe(true);
    const run = spawnSync(process.execPath, [MAIN], {
      env: { ...process.env, PORT: 'eighty' },
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(run.status).not.toBe(0);
    expect(run.stdout).toBe('');
    const lines = run.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/PORT/);
  });
});

describe('issue 15: a store that cannot be opened', () => {
  // Every kind of store that cannot be opened gets one line with its reason from the openers
  // (src/store/open.test.ts, in process); here the processes' exits with that line.
  let dir: string;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'reviews-unopenable-'));
    expect(spawnSync('mkfifo', [join(dir, 'a-pipe')]).status).toBe(0);
    writeFileSync(join(dir, 'not-a-database.db'), 'plain text, not SQLite. '.repeat(40));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** Runs a command with only the variables it needs (vitest sets BASE_URL to "/"). */
  function run(args: string[], databaseUrl: string) {
    return spawnSync(process.execPath, args, {
      env: {
        PATH: process.env.PATH ?? '',
        PORT: '0',
        SAMPLE_DATA: 'off',
        DATABASE_URL: databaseUrl,
      },
      encoding: 'utf8',
      // Only a bound for a hang (which then fails the test), not a measure of speed.
      timeout: 30_000,
    });
  }

  it.each([
    // Node's recursive mkdir spun for ever: start-up hung with no message.
    ['a folder under /proc', [MAIN], () => '/proc/nope/x.db'],
    // Reading it would block.
    ['a named pipe as the database file', [BIN, 'serve'], () => join(dir, 'a-pipe')],
  ])('%s stops start-up with one line and exit code 78', (_name, args, path) => {
    const started = run(args, `sqlite:${path()}`);
    expect(started.signal, 'it hung').toBeNull();
    expect(started.status).toBe(78);
    expect(started.stdout).toBe('');
    const lines = started.stderr.trim().split('\n');
    expect(lines, started.stderr).toHaveLength(1);
    expect(lines[0]).toMatch(
      new RegExp(`^dealer-reviews: cannot open the store DATABASE_URL=sqlite:${path()}: \\S`),
    );
    expect(lines[0]).not.toMatch(/\[object Object\]/);
  });

  it.each([
    [
      'a path that names no file',
      () => join(dir, 'missing', 'x.db'),
      /: no such file \(DATABASE_URL\)$/,
    ],
    [
      'a file that is not a SQLite database',
      () => join(dir, 'not-a-database.db'),
      /cannot open the store DATABASE_URL=.*\(SQLITE_NOTADB\)$/,
    ],
  ])('%s fails the insights command in one line', (_name, path, reason) => {
    const insights = run([BIN, 'insights'], `sqlite:${path()}`);
    expect(insights.signal, 'it hung').toBeNull();
    expect(insights.status).toBe(1);
    expect(insights.stdout).toBe('');
    const lines = insights.stderr.trim().split('\n');
    expect(lines, insights.stderr).toHaveLength(1);
    expect(lines[0]).toMatch(/^insights: /);
    expect(lines[0]).toMatch(reason);
  });
});

describe('issue 15 (fuzz): an address the service cannot listen on', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'reviews-listen-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** Starts the service with only the variables it needs (vitest sets BASE_URL to "/"). */
  function serve(env: Record<string, string>) {
    return spawnSync(process.execPath, [MAIN], {
      env: {
        PATH: process.env.PATH ?? '',
        SAMPLE_DATA: 'off',
        DATABASE_URL: `sqlite:${join(dir, 'reviews.db')}`,
        ...env,
      },
      encoding: 'utf8',
      // Only a bound for a hang (which then fails the test), not a measure of speed.
      timeout: 30_000,
    });
  }

  it.each([
    ['a HOST that does not resolve', { HOST: 'nonexistent.invalid', PORT: '0' }],
    ['a HOST that is not this machine', { HOST: '192.0.2.1', PORT: '0' }],
  ])('%s stops start-up with one line and exit code 78', (_name, env) => {
    // It was "dealer-reviews: unexpected error: getaddrinfo ENOTFOUND ...", exit 1.
    const run = serve(env);
    expect(run.signal, 'it hung').toBeNull();
    expect(run.status, run.stderr).toBe(78);
    const lines = run.stderr.trim().split('\n');
    expect(lines, run.stderr).toHaveLength(1);
    expect(lines[0]).toMatch(/^dealer-reviews: cannot listen on HOST="[^"]+" PORT=0: /);
  });

  it('a PORT another process holds stops start-up the same way', async () => {
    const holder = createServer().listen(0, '127.0.0.1');
    await new Promise((r) => holder.once('listening', r));
    const port = (holder.address() as { port: number }).port;
    try {
      const run = serve({ HOST: '127.0.0.1', PORT: String(port) });
      expect(run.status, run.stderr).toBe(78);
      expect(run.stderr.trim().split('\n')).toEqual([
        expect.stringMatching(/^dealer-reviews: cannot listen on .*EADDRINUSE/),
      ]);
    } finally {
      holder.close();
    }
  });
});
