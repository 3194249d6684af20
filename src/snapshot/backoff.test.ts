import { describe, expect, it } from 'vitest';
import { createBackoff, RETRY } from './backoff.js';

describe('createBackoff', () => {
  it('doubles from 0.5 s up to 10 s, and starts again after a success', () => {
    const backoff = createBackoff({ ...RETRY, random: () => 0.5 });
    const delays = Array.from({ length: 8 }, () => backoff.next());
    expect(delays).toEqual([500, 1_000, 2_000, 4_000, 8_000, 10_000, 10_000, 10_000]);
    backoff.reset();
    expect(backoff.next()).toBe(500);
  });

  it('moves each delay by up to a quarter either way, so instances do not retry together', () => {
    const low = createBackoff({ ...RETRY, random: () => 0 });
    const high = createBackoff({ ...RETRY, random: () => 0.999_999 });
    expect([low.next(), low.next()]).toEqual([375, 750]);
    expect([high.next(), high.next()]).toEqual([625, 1_250]);
    for (let i = 0; i < 100; i++) low.next();
    expect(low.next()).toBe(7_500);
  });
});
