/**
 * A small seeded pseudo-random generator (mulberry32): the same seed gives the same sequence on
 * every run and machine. Used wherever reproducibility matters (training folds, generated
 * benchmark files, test fixtures); never `Math.random`.
 */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
