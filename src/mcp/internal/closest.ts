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

/**
 * The known names closest to one that matched nothing, best first (at most `max`): a name whose
 * word starts like the wanted one or contains it, then small spelling differences (of a whole
 * name or of one of its words, so "Torez" finds "Mike Torres" and "brake" finds "brakes").
 */
export function closestNames(wanted: string, known: readonly string[], max = 3): string[] {
  const w = wanted.trim().toLowerCase();
  if (w === '') return [];
  const scored = known.map((name) => {
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
