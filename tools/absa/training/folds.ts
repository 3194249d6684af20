import { seededRandom } from '../../../src/domain/random.js';
import type { LabelledSentence } from './datasets.js';

export { seededRandom };

function shuffle<T>(items: T[], random: () => number): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [items[i], items[j]] = [items[j]!, items[i]!];
  }
  return items;
}

/**
 * Assigns each sentence to one of `k` folds, stratified by its set of gold categories: sentences
 * are grouped by that set, shuffled with a seeded PRNG and dealt round-robin, so every fold has
 * nearly the same label mix. Returns the fold number of each sentence, in input order.
 */
export function stratifiedFolds(
  data: readonly LabelledSentence[],
  k: number,
  seed: number,
): number[] {
  const groups = new Map<string, number[]>();
  data.forEach((s, i) => {
    const key = [...new Set(s.aspects.map((a) => a.category))].sort().join('+');
    const list = groups.get(key) ?? [];
    list.push(i);
    groups.set(key, list);
  });
  const random = seededRandom(seed);
  const folds = new Array<number>(data.length).fill(0);
  let next = 0;
  for (const key of [...groups.keys()].sort()) {
    for (const i of shuffle(groups.get(key)!, random)) {
      folds[i] = next;
      next = (next + 1) % k;
    }
  }
  return folds;
}
