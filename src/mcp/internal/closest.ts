/** Edit distance (insertions, deletions, substitutions) between two strings. */
function distance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(
        previous[j]! + 1,
        current[j - 1]! + 1,
        previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    }
    previous = current;
  }
  return previous[b.length]!;
}

/** Longer wanted names are compared by their start (a name is at most a few dozen letters). */
const MAX_WANTED = 64;
/** Edit distances are computed for at most this many candidates... */
const SHORTLIST = 200;

/** The pairs of letters of a string. */
function bigrams(s: string): Set<string> {
  const out = new Set<string>();
  for (let i = 0; i + 2 <= s.length; i++) out.add(s.slice(i, i + 2));
  return out;
}

/**
 * ...the ones sharing the most letter pairs with the wanted name, when there are more (a roster
 * of 2,000 and the names sources tagged, or 500 services with 50 synonyms each): the distances
 * of all would hold the event loop.
 */
function shortlist(w: string, known: readonly string[]): readonly string[] {
  if (known.length <= SHORTLIST) return known;
  const pairs = bigrams(w);
  const shared = (name: string) => {
    const n = name.toLowerCase();
    let count = 0;
    for (let i = 0; i + 2 <= n.length; i++) if (pairs.has(n.slice(i, i + 2))) count++;
    return n.includes(w) ? Number.MAX_SAFE_INTEGER : count;
  };
  return known
    .map((name) => ({ name, score: shared(name) }))
    .sort((a, b) => b.score - a.score)
    .slice(0, SHORTLIST)
    .map((s) => s.name);
}

/**
 * The known names closest to one that matched nothing, best first (at most `max`): a name whose
 * word starts like the wanted one or contains it, then small spelling differences (of a whole
 * name or of one of its words, so "Torez" finds "Mike Torres" and "brake" finds "brakes").
 */
export function closestNames(wanted: string, known: readonly string[], max = 3): string[] {
  const w = wanted.trim().toLowerCase().slice(0, MAX_WANTED);
  if (w === '') return [];
  const scored = shortlist(w, known).map((name) => {
    const n = name.toLowerCase();
    const words = n.split(/[\s_-]+/);
    let score = distance(w, n);
    for (const word of words) score = Math.min(score, distance(w, word) + 0.5);
    if (n.includes(w) || words.some((word) => word.startsWith(w))) score = Math.min(score, 0.25);
    return { name, score };
  });
  const tolerance = Math.max(2, Math.ceil(w.length / 3));
  return scored
    .filter((s) => s.score <= tolerance)
    .sort((a, b) => a.score - b.score || a.name.localeCompare(b.name))
    .slice(0, max)
    .map((s) => s.name);
}
