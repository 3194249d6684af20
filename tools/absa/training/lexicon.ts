import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../../paths.js';

/** The VADER lexicon as the `vader-sentiment` npm package (a dev dependency) ships it. */
export function vaderLexiconPath(): string {
  return join(repoRoot(), 'node_modules', 'vader-sentiment', 'vader_lexicon.txt');
}

/** The words of car-service reviews VADER lacks, which the dealership model adds to it. */
export function serviceLexiconPath(): string {
  return join(repoRoot(), 'data-labels', 'service-lexicon.tsv');
}

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
  return sortedByWord(entries);
}

/**
 * Reads a supplement to the lexicon (`word<TAB>valence` lines, `#` comments), such as the words of
 * car-service reviews in `data-labels/service-lexicon.tsv`. A word the supplement repeats is an
 * error, as is a valence outside [-4, 4].
 */
export function readLexiconSupplement(path: string): Record<string, number> {
  const entries: Record<string, number> = {};
  for (const [n, line] of readFileSync(path, 'utf8').split('\n').entries()) {
    if (line.trim() === '' || line.startsWith('#')) continue;
    const [word, valence, extra] = line.split('\t');
    const v = Number(valence);
    if (
      !word ||
      extra !== undefined ||
      !/^[\p{Ll}][\p{Ll}'-]*$/u.test(word) ||
      !/^-?\d+(\.\d+)?$/.test(valence ?? '') ||
      !(Math.abs(v) <= 4)
    ) {
      throw new Error(
        `${path}:${n + 1}: expected a lower-case word, a tab and a valence in [-4, 4]`,
      );
    }
    if (Object.hasOwn(entries, word))
      throw new Error(`${path}:${n + 1}: "${word}" is listed twice`);
    entries[word] = v;
  }
  return entries;
}

/**
 * The lexicon with a supplement's words added, sorted by word as `readVaderLexicon`'s. A supplement
 * adds words and never changes one the lexicon holds.
 */
export function withSupplement(
  lexicon: Record<string, number>,
  supplement: Record<string, number>,
): Record<string, number> {
  const held = Object.keys(supplement).filter((w) => Object.hasOwn(lexicon, w));
  if (held.length > 0) throw new Error(`the lexicon already holds: ${held.join(', ')}`);
  return sortedByWord([...Object.entries(lexicon), ...Object.entries(supplement)]);
}

function sortedByWord(entries: [string, number][]): Record<string, number> {
  entries.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  return Object.fromEntries(entries);
}
