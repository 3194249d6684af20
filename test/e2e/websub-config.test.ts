import { describe, expect, it } from 'vitest';
import { CONFIG_INVALID, loadConfig } from '../../src/config.js';

/** A configuration error (`CONFIG_INVALID`). */
const configInvalid = expect.objectContaining({ name: 'ServiceError', code: CONFIG_INVALID });

describe('WebSub settings from the environment', () => {
  it('has documented defaults', () => {
    expect(loadConfig({}).websub).toEqual({
      callbackAllowCidrs: [],
      rateLimitPerMin: 60,
      timeoutMs: 10_000,
      retryDelaysMs: [10_000, 60_000, 300_000, 1_800_000],
      concurrency: 64,
      hostConcurrency: 8,
      maxSubscriptionsPerHost: 1_000,
      lease: { minSeconds: 3_600, defaultSeconds: 864_000, maxSeconds: 2_592_000 },
    });
  });

  it('parses lists', () => {
    const c = loadConfig({
      WEBSUB_CALLBACK_ALLOW_CIDRS: ' 127.0.0.0/8, ::1/128,10.1.2.3 ',
      WEBSUB_RETRY_DELAYS_MS: '0, 100,2000',
      WEBSUB_LEASE_MIN_SECONDS: '1',
    }).websub;
    expect(c.callbackAllowCidrs).toEqual(['127.0.0.0/8', '::1/128', '10.1.2.3']);
    expect(c.retryDelaysMs).toEqual([0, 100, 2000]);
    expect(c.lease.minSeconds).toBe(1);
  });

  it.each([
    ['WEBSUB_CALLBACK_ALLOW_CIDRS', '127.0.0.0/33'],
    ['WEBSUB_CALLBACK_ALLOW_CIDRS', 'localhost'],
    ['WEBSUB_CALLBACK_ALLOW_CIDRS', '10.0.0.0/8/8'],
    ['WEBSUB_RATE_LIMIT_PER_MIN', '0'],
    ['WEBSUB_RATE_LIMIT_PER_MIN', 'many'],
    ['WEBSUB_TIMEOUT_MS', '50'],
    ['WEBSUB_TIMEOUT_MS', '1e4'],
    ['WEBSUB_RETRY_DELAYS_MS', '100,,200'],
    ['WEBSUB_RETRY_DELAYS_MS', '-1'],
    ['WEBSUB_RETRY_DELAYS_MS', '1s'],
    ['WEBSUB_CONCURRENCY', '0'],
    ['WEBSUB_HOST_CONCURRENCY', '65'],
    ['WEBSUB_MAX_SUBSCRIPTIONS_PER_HOST', '0'],
    ['WEBSUB_LEASE_MIN_SECONDS', '0'],
    ['WEBSUB_LEASE_MAX_SECONDS', '31536001'],
    ['WEBSUB_LEASE_DEFAULT_SECONDS', '3599'],
    ['WEBSUB_LEASE_DEFAULT_SECONDS', '2592001'],
  ])('rejects %s=%s naming the variable', (key, value) => {
    expect(() => loadConfig({ [key]: value })).toThrow(configInvalid);
    expect(() => loadConfig({ [key]: value })).toThrow(new RegExp(`^invalid ${key}=`));
  });

  it('issue 15 (fuzz): an unset setting follows the bounds that were set', () => {
    // WEBSUB_CONCURRENCY=4 alone stopped the service, blaming WEBSUB_HOST_CONCURRENCY="8",
    // which the operator never set; so did a lease bound that left the unset default outside.
    expect(loadConfig({ WEBSUB_CONCURRENCY: '4' }).websub.hostConcurrency).toBe(4);
    expect(loadConfig({ WEBSUB_LEASE_MIN_SECONDS: '1000000' }).websub.lease).toEqual({
      minSeconds: 1_000_000,
      defaultSeconds: 1_000_000,
      maxSeconds: 2_592_000,
    });
    expect(loadConfig({ WEBSUB_LEASE_MAX_SECONDS: '7200' }).websub.lease.defaultSeconds).toBe(7200);
  });

  it.each([
    [{ WEBSUB_LEASE_MIN_SECONDS: '3000000' }, 'WEBSUB_LEASE_MIN_SECONDS'],
    [{ WEBSUB_LEASE_MAX_SECONDS: '1800' }, 'WEBSUB_LEASE_MAX_SECONDS'],
    [
      { WEBSUB_LEASE_MIN_SECONDS: '7200', WEBSUB_LEASE_MAX_SECONDS: '3600' },
      'WEBSUB_LEASE_MIN_SECONDS',
    ],
    [
      { WEBSUB_LEASE_MAX_SECONDS: '7200', WEBSUB_LEASE_DEFAULT_SECONDS: '9000' },
      'WEBSUB_LEASE_DEFAULT_SECONDS',
    ],
    [{ WEBSUB_CONCURRENCY: '4', WEBSUB_HOST_CONCURRENCY: '8' }, 'WEBSUB_HOST_CONCURRENCY'],
  ])('issue 15 (fuzz): bounds that disagree name a variable that was set: %j', (env, key) => {
    expect(() => loadConfig(env)).toThrow(new RegExp(`^invalid ${key}=`));
  });
});
