/**
 * A small seeded pseudo-random generator (sfc32) and the sampling helpers the sample generator
 * needs. Everything random in the sample comes from here, so the same seed always gives the same
 * bytes; `Math.random` is never used.
 */

/** A seeded source of uniform numbers in [0, 1) with sampling helpers. */
export interface Rng {
  /** A uniform float in [0, 1). */
  next(): number;
  /** A uniform integer in [min, max] (both inclusive). */
  int(min: number, max: number): number;
  /** True with probability `p`. */
  chance(p: number): boolean;
  /** A uniformly chosen element of a non-empty array. */
  pick<T>(items: readonly T[]): T;
  /** An element chosen with probability proportional to its weight. */
  weighted<T>(items: readonly (readonly [T, number])[]): T;
  /** A log-normal sample with the given median and shape (sigma of the underlying normal). */
  logNormal(median: number, sigma: number): number;
}

/** Mixes a seed and a stream index into a well-spread 32-bit integer (the murmur3 finaliser). */
export function mix32(seed: number, index: number): number {
  let h =
    (Math.imul(seed ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(index + 0x6a09e667, 0xc2b2ae35)) >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x7feb352d);
  h ^= h >>> 15;
  h = Math.imul(h, 0x846ca68b);
  h ^= h >>> 16;
  return h >>> 0;
}

/** The sampling helpers, written once on top of a `next()`. */
abstract class Sampler implements Rng {
  abstract next(): number;
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)]!;
  }
  weighted<T>(items: readonly (readonly [T, number])[]): T {
    const n = items.length;
    let total = 0;
    for (let i = 0; i < n; i++) total += items[i]![1];
    let r = this.next() * total;
    for (let i = 0; i < n; i++) {
      r -= items[i]![1];
      if (r < 0) return items[i]![0];
    }
    return items[n - 1]![0];
  }
  logNormal(median: number, sigma: number): number {
    // Box-Muller; 1 - u keeps the logarithm finite.
    const u = 1 - this.next();
    const v = this.next();
    const z = Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
    return median * Math.exp(sigma * z);
  }
}

class Sfc32 extends Sampler {
  private a: number;
  private b: number;
  private c: number;
  private d = 1;
  constructor(seed: number, stream: number) {
    super();
    this.a = mix32(seed, stream);
    this.b = mix32(seed ^ 0x5bd1e995, stream + 1);
    this.c = mix32(seed ^ 0x1b873593, stream + 2);
    for (let i = 0; i < 12; i++) this.next();
  }
  next(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return (t >>> 0) / 4294967296;
  }
}

class FromSource extends Sampler {
  constructor(private readonly source: () => number) {
    super();
  }
  next(): number {
    return this.source();
  }
}

/**
 * Creates an sfc32 generator for a seed and an optional stream number. Different streams of one
 * seed are independent, which lets every review draw from its own stream: editing how one review
 * is written then leaves the others byte-for-byte unchanged.
 */
export function createRng(seed: number, stream = 0): Rng {
  return new Sfc32(seed, stream);
}

/** Wraps any source of uniform numbers in [0, 1) in the sampling helpers. */
export function rngFrom(next: () => number): Rng {
  return new FromSource(next);
}

/**
 * A generator that also records every number it hands out, and a way to replay them: a Spanish
 * template and its translation are expanded with the same picks.
 */
export function recordingRng(rng: Rng): { rng: Rng; replay: () => Rng } {
  const seen: number[] = [];
  return {
    rng: rngFrom(() => {
      const x = rng.next();
      seen.push(x);
      return x;
    }),
    replay: () => {
      let i = 0;
      return rngFrom(() => seen[i++] ?? 0);
    },
  };
}
