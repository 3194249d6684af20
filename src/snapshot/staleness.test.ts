import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { createRefreshHealth } from './staleness.js';

const EXACT = { firstMs: 500, maxMs: 10_000, random: () => 0.5 };

describe('createRefreshHealth', () => {
  it('is stale from the first failure, behind only while the store answers, fresh after a success', () => {
    let now = 1_000;
    const health = createRefreshHealth(pino({ level: 'silent' }), EXACT, () => now);
    expect(health.stale()).toBeNull();
    expect(health.retryIn()).toBeNull();

    // A build failed: the store holds version 5.
    health.failed(new Error('worker gone'), 5);
    expect(health.stale()).toEqual({
      since: 1_000,
      reason: 'data version 5 could not be published',
      newerVersion: 5,
      behindSince: 1_000,
    });
    expect(health.retryIn()).toBe(500);
    now = 2_000;
    health.failed(new Error('worker gone'), 5);
    expect(health.stale()).toMatchObject({ since: 1_000, behindSince: 1_000 });
    expect(health.retryIn()).toBe(1_000);

    // Then the store went away: an outage, not a stuck instance (the grace starts again).
    now = 3_000;
    health.failed(new Error('connect ECONNREFUSED'), null);
    expect(health.stale()).toEqual({
      since: 1_000,
      reason: 'the store could not be read',
      newerVersion: 5,
      behindSince: null,
    });
    now = 4_000;
    health.failed(new Error('worker gone'), 6);
    expect(health.stale()).toMatchObject({ since: 1_000, newerVersion: 6, behindSince: 4_000 });

    health.succeeded();
    expect(health.stale()).toBeNull();
    expect(health.retryIn()).toBeNull();
    health.failed(new Error('again'), null);
    expect(health.retryIn()).toBe(500);
    expect(health.stale()).toMatchObject({ since: 4_000, behindSince: null });
  });
});
