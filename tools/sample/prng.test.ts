import { describe, expect, it } from 'vitest';
import { createRng, recordingRng } from './prng.js';

describe('createRng', () => {
  it('gives the same numbers for the same seed and stream', () => {
    const a = createRng(42, 7);
    const b = createRng(42, 7);
    const xs = Array.from({ length: 100 }, () => a.next());
    expect(Array.from({ length: 100 }, () => b.next())).toEqual(xs);
  });

  it('gives different numbers for another stream or seed', () => {
    const first = createRng(42, 7).next();
    expect(createRng(42, 8).next()).not.toBe(first);
    expect(createRng(43, 7).next()).not.toBe(first);
  });

  it('stays in [0, 1) and covers the range evenly', () => {
    const rng = createRng(1);
    const buckets = new Array<number>(10).fill(0);
    for (let i = 0; i < 100_000; i++) {
      const x = rng.next();
      expect(x >= 0 && x < 1).toBe(true);
      buckets[Math.floor(x * 10)]!++;
    }
    for (const b of buckets) expect(Math.abs(b - 10_000)).toBeLessThan(500);
  });

  it('samples weights in proportion', () => {
    const rng = createRng(3);
    let heads = 0;
    for (let i = 0; i < 20_000; i++)
      if (
        rng.weighted([
          ['h', 3],
          ['t', 1],
        ] as const) === 'h'
      )
        heads++;
    expect(heads / 20_000).toBeGreaterThan(0.73);
    expect(heads / 20_000).toBeLessThan(0.77);
  });
});

describe('recordingRng', () => {
  it('replays exactly the numbers it handed out', () => {
    const rec = recordingRng(createRng(9));
    const seen = [rec.rng.next(), rec.rng.int(1, 100), rec.rng.pick(['a', 'b', 'c'])];
    const again = rec.replay();
    expect([again.next(), again.int(1, 100), again.pick(['a', 'b', 'c'])]).toEqual(seen);
  });
});
