import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONFIG_INVALID, loadConfig, loadEnv, loadSyncConfig } from './config.js';

/** A configuration error (`CONFIG_INVALID`). */
const configInvalid = expect.objectContaining({ name: 'ServiceError', code: CONFIG_INVALID });

describe('DATABASE_URL', () => {
  it.each([
    'sqlite:./data/reviews.db',
    'sqlite::memory:',
    'postgres://reviews:secret@db.example:5432/reviews',
    'postgresql://db.example/reviews?sslmode=require&pool_size=20',
    'postgres:///reviews?host=/var/run/postgresql',
    'postgres://reviews@/reviews?host=/var/run/postgresql&pool_size=1',
  ])('accepts %s', (url) => {
    expect(loadConfig({ DATABASE_URL: url }).databaseUrl).toBe(url);
    expect(loadEnv(['DATABASE_URL'], { DATABASE_URL: url }).DATABASE_URL).toBe(url);
  });

  it.each([
    ['mysql://db.example/reviews', 'must be sqlite:<path>, postgres://… or postgresql://…'],
    ['sqlite:', 'must be sqlite:<path>, postgres://… or postgresql://…'],
    ['postgres:db.example', 'must be sqlite:<path>, postgres://… or postgresql://…'],
    ['postgres://db.example/reviews?pool_size=0', 'pool_size must be an integer from 1 to 100'],
    ['postgres://db.example/reviews?pool_size=ten', 'pool_size must be an integer from 1 to 100'],
    ['postgres://db.example/reviews?pool_size=101', 'pool_size must be an integer from 1 to 100'],
  ])('rejects %s in one line', (url, reason) => {
    const load = () => loadConfig({ DATABASE_URL: url });
    expect(load).toThrow(configInvalid);
    expect(load).toThrow(`invalid DATABASE_URL="${url}": ${reason}`);
  });

  it('shows only the scheme of a URL it cannot parse (where a password would be is unknown)', () => {
    expect(() => loadConfig({ DATABASE_URL: 'postgres://u:p@db.example:99999/reviews' })).toThrow(
      'invalid DATABASE_URL="postgres://***": must be a URL like postgres://user:password@host:5432/database',
    );
  });

  it('never shows the password of a rejected URL', () => {
    expect(() =>
      loadConfig({ DATABASE_URL: 'postgres://reviews:hunter2@db.example/reviews?pool_size=0' }),
    ).toThrow(
      'invalid DATABASE_URL="postgres://reviews:***@db.example/reviews?pool_size=0": pool_size must be an integer from 1 to 100',
    );
  });

  it.each([
    ['postgress://u:s3cret@h/db', 'postgress://u:***@h/db'],
    ['mysql://root:s3cret@db.example/reviews', 'mysql://root:***@db.example/reviews'],
    ['mysql://s3cret@db.example/reviews', 'mysql://***@db.example/reviews'],
    ['mysql://u:p@ss/w0rd@db.example/x', 'mysql://u:***@db.example/x'],
    ['mongodb://db.example/x?password=s3cret&a=1', 'mongodb://db.example/x?password=***&a=1'],
  ])('never shows the password of a URL of another scheme (%s)', (url, shown) => {
    const load = () => loadConfig({ DATABASE_URL: url });
    expect(load).toThrow(`invalid DATABASE_URL="${shown}": must be sqlite:<path>`);
    expect(load).not.toThrow(/s3cret|ss\/w0rd/);
  });
});

describe('MCP_SESSION_SECRET', () => {
  it('is never shown when it is refused, only its length', () => {
    const secret = 'short-but-secret-value-31-chars';
    expect(secret).toHaveLength(31);
    const load = () => loadConfig({ MCP_SESSION_SECRET: secret });
    expect(load).toThrow(
      'invalid MCP_SESSION_SECRET=<31 characters>: must be at least 32 characters',
    );
    expect(load).not.toThrow(/short-but-secret/);
  });
});

describe('HEALTHZ_STALE_SECONDS', () => {
  it('is 120 s unless set, and 0 turns the 503 of a stale instance off', () => {
    expect(loadConfig({}).healthzStaleMs).toBe(120_000);
    expect(loadConfig({ HEALTHZ_STALE_SECONDS: '0' }).healthzStaleMs).toBe(0);
    expect(loadConfig({ HEALTHZ_STALE_SECONDS: '86400' }).healthzStaleMs).toBe(86_400_000);
  });

  it.each(['-1', '1.5', '86401', 'soon'])('rejects %s in one line', (value) => {
    expect(() => loadConfig({ HEALTHZ_STALE_SECONDS: value })).toThrow(
      `invalid HEALTHZ_STALE_SECONDS="${value}": must be an integer from 0 to 86400`,
    );
  });
});

describe('SYNC_INTERVAL_SECONDS', () => {
  it('is 900 s unless set, and 0 turns scheduled sync off', () => {
    expect(loadConfig({}).sync).toEqual({
      intervalMs: 900_000,
      gbp: null,
      urls: [],
      allowCidrs: [],
    });
    expect(loadConfig({ SYNC_INTERVAL_SECONDS: '0' }).sync).toEqual({
      intervalMs: 0,
      gbp: null,
      urls: [],
      allowCidrs: [],
    });
    expect(loadConfig({ SYNC_INTERVAL_SECONDS: '60' }).sync).toEqual({
      intervalMs: 60_000,
      gbp: null,
      urls: [],
      allowCidrs: [],
    });
  });

  it.each(['-1', '15m', '604801'])('refuses %s in one line', (value) => {
    const load = () => loadConfig({ SYNC_INTERVAL_SECONDS: value });
    expect(load).toThrow(configInvalid);
    expect(load).toThrow(`invalid SYNC_INTERVAL_SECONDS="${value}"`);
  });
});

describe('SYNC_URLS and SYNC_ALLOW_CIDRS', () => {
  it('are read by loadSyncConfig (dealer-reviews sync) as by loadConfig', () => {
    const env = {
      SYNC_URLS: 'https://a.example/r.csv',
      SYNC_ALLOW_CIDRS: '10.0.0.0/8',
      PORT: 'bad',
    };
    expect(loadSyncConfig(env)).toEqual({
      intervalMs: 900_000,
      gbp: null,
      urls: ['https://a.example/r.csv'],
      allowCidrs: ['10.0.0.0/8'],
    });
  });

  it('lists each URL once, and the ranges', () => {
    const env = {
      SYNC_URLS: 'https://a.example/r.csv, https://a.example/r.csv,http://10.0.0.5/x.json',
      SYNC_ALLOW_CIDRS: '10.0.0.0/8',
    };
    expect(loadConfig(env).sync).toMatchObject({
      urls: ['https://a.example/r.csv', 'http://10.0.0.5/x.json'],
      allowCidrs: ['10.0.0.0/8'],
    });
  });

  it.each([
    ['SYNC_URLS', 'ftp://a.example/r.csv'],
    ['SYNC_URLS', 'a.example/r.csv'],
    ['SYNC_ALLOW_CIDRS', '10.0.0.0/33'],
  ])('refuses %s=%s in one line', (key, value) => {
    expect(() => loadConfig({ [key]: value })).toThrow(configInvalid);
    expect(() => loadConfig({ [key]: value })).toThrow(`invalid ${key}=`);
  });
});

describe('GBP_* (Google Business Profile)', () => {
  const gbp = {
    GBP_LOCATION: 'accounts/1234/locations/5678',
    GBP_CLIENT_ID: 'id.apps.googleusercontent.com',
    GBP_CLIENT_SECRET: 'the-client-secret',
    GBP_REFRESH_TOKEN: '1//the-refresh-token',
  };

  it('is off unless GBP_LOCATION is set, and takes its defaults', () => {
    expect(loadConfig({}).sync.gbp).toBeNull();
    expect(loadConfig(gbp).sync.gbp).toEqual({
      location: 'accounts/1234/locations/5678',
      clientId: 'id.apps.googleusercontent.com',
      clientSecret: 'the-client-secret',
      refreshToken: '1//the-refresh-token',
      apiBaseUrl: 'https://mybusiness.googleapis.com',
      tokenUrl: 'https://oauth2.googleapis.com/token',
      fullSyncMs: 24 * 3_600_000,
    });
  });

  it('reads a secret from its *_FILE, trimmed', () => {
    const dir = mkdtempSync(join(tmpdir(), 'config-gbp-'));
    try {
      writeFileSync(join(dir, 'token'), '1//from-a-file\n');
      const env = { ...gbp, GBP_REFRESH_TOKEN: '', GBP_REFRESH_TOKEN_FILE: join(dir, 'token') };
      expect(loadConfig(env).sync.gbp?.refreshToken).toBe('1//from-a-file');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it.each([
    [
      { GBP_LOCATION: 'locations/5678' },
      'invalid GBP_LOCATION="locations/5678": must be accounts/{account}/locations/{location}',
    ],
    [
      { GBP_CLIENT_ID: '' },
      'invalid GBP_LOCATION="accounts/1234/locations/5678": needs GBP_CLIENT_ID',
    ],
    [
      { GBP_CLIENT_SECRET: '' },
      'invalid GBP_LOCATION="accounts/1234/locations/5678": needs GBP_CLIENT_SECRET or GBP_CLIENT_SECRET_FILE',
    ],
    [
      { GBP_REFRESH_TOKEN: '', GBP_REFRESH_TOKEN_FILE: '/nonexistent/token' },
      'invalid GBP_REFRESH_TOKEN_FILE="/nonexistent/token": cannot be read (ENOENT)',
    ],
    [
      { GBP_REFRESH_TOKEN_FILE: '/run/secrets/token' },
      'invalid GBP_REFRESH_TOKEN_FILE="/run/secrets/token": set GBP_REFRESH_TOKEN or GBP_REFRESH_TOKEN_FILE, not both',
    ],
    [{ GBP_LOCATION: '' }, 'invalid GBP_CLIENT_ID=<set>: needs GBP_LOCATION too'],
    [
      { GBP_TOKEN_URL: 'oauth2.googleapis.com/token' },
      'invalid GBP_TOKEN_URL="oauth2.googleapis.com/token": must be an absolute http(s) URL',
    ],
  ])('refuses %o in one line, never showing a secret', (change, message) => {
    const load = () => loadConfig({ ...gbp, ...change });
    expect(load).toThrow(configInvalid);
    expect(load).toThrow(message);
    try {
      load();
    } catch (err) {
      expect((err as Error).message).not.toMatch(/the-client-secret|the-refresh-token/);
    }
  });

  it('never shows a refused secret', () => {
    // A secret cannot be refused by its own rule; its length is all a message may tell.
    const load = () => loadConfig({ GBP_CLIENT_SECRET: 'the-client-secret' });
    expect(load).toThrow('invalid GBP_CLIENT_SECRET=<set>: needs GBP_LOCATION too');
  });
});
