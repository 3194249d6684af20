import type { IndexData } from './index-data.js';
import { asBuffer, listAt, packedCount, packLists, stringAt } from './packed.js';

/**
 * The index's vocabulary (its distinct words) found by substring: the trigrams of each word,
 * built with the index, and the lookup of the words that contain a run of a query: through the
 * trigrams for a run of three characters or more, one scan of the packed words for a shorter one.
 */

/** The trigrams of the vocabulary and, for each, the ids of the words that contain it. */
export function buildTrigrams(
  vocabulary: readonly string[],
): Pick<IndexData, 'trigrams' | 'trigramWords'> {
  const lists = new Map<string, number[]>();
  vocabulary.forEach((word, id) => {
    const seen = new Set<string>();
    for (let i = 0; i + 3 <= word.length; i++) {
      const gram = word.slice(i, i + 3);
      if (seen.has(gram)) continue;
      seen.add(gram);
      const list = lists.get(gram);
      if (list) list.push(id);
      else lists.set(gram, [id]);
    }
  });
  return { trigrams: [...lists.keys()], trigramWords: packLists([...lists.values()]) };
}

/** The words of one index version that contain a run; the trigrams' map is built on first use. */
export class WordFinder {
  private trigramMap: Map<string, number> | undefined;
  private readonly vocabularyBytes: Buffer;

  constructor(private readonly data: IndexData) {
    this.vocabularyBytes = asBuffer(data.vocabulary.bytes);
  }

  /** Ids of the vocabulary words that contain `run`. */
  wordsContaining(run: string): number[] {
    if (run.length < 3) return this.scanVocabulary(run);
    const lists: Uint32Array[] = [];
    this.trigramMap ??= new Map(this.data.trigrams.map((g, i) => [g, i]));
    for (let i = 0; i + 3 <= run.length; i++) {
      const k = this.trigramMap.get(run.slice(i, i + 3));
      if (k === undefined) return [];
      lists.push(listAt(this.data.trigramWords, k));
    }
    lists.sort((x, y) => x.length - y.length);
    const out: number[] = [];
    for (const w of lists[0]!) {
      if (stringAt(this.data.vocabulary, w).includes(run)) out.push(w);
    }
    return out;
  }

  /** Words containing a short run: one scan of the packed vocabulary bytes. */
  private scanVocabulary(run: string): number[] {
    const needle = Buffer.from(run);
    const { offsets } = this.data.vocabulary;
    const out: number[] = [];
    let from = 0;
    for (;;) {
      const at = this.vocabularyBytes.indexOf(needle, from);
      if (at < 0) return out;
      // The word holding the match (the last whose start is at or before it).
      let lo = 0;
      let hi = packedCount(this.data.vocabulary);
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (offsets[mid]! <= at) lo = mid + 1;
        else hi = mid;
      }
      const w = lo - 1;
      const end = offsets[w + 1]!;
      if (at + needle.length <= end) {
        out.push(w);
        from = end;
      } else from = at + 1;
    }
  }
}
