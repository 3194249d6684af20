import { readFileSync } from 'node:fs';

/**
 * Reads the VADER sentiment lexicon (`word<TAB>mean valence<TAB>…`, valence in [-4, 4]) shipped in
 * the `vader-sentiment` npm package, keeping plain words (no emoticons), sorted by word.
 */
export function readVaderLexicon(path: string): Record<string, number> {
  const entries: [string, number][] = [];
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    const [word, valence] = line.split('\t');
    if (!word || valence === undefined || !/^[\p{L}][\p{L}'-]*$/u.test(word)) continue;
    entries.push([word.toLowerCase(), Number(valence)]);
  }
  entries.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  return Object.fromEntries(entries);
}
