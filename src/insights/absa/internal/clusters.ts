/** Word clusters: word to its [fine, coarse] cluster ids. */
export type WordClusters = Map<string, readonly [number, number]>;

/** The JSON layout of `models/word-clusters.json`. */
export interface WordClustersFile {
  source: string;
  words: number;
  /** Coarse cluster of each fine cluster. */
  coarseOfFine: number[];
  /** Words of each fine cluster, space-separated. */
  fine: string[];
}

/**
 * Builds the word-to-cluster map from the shipped clusters file. The words of a fine cluster share
 * one frozen `[fine, coarse]` pair: a thousand pairs instead of 100,000, which every service start
 * and build worker would allocate and collect.
 */
export function parseWordClusters(file: WordClustersFile): WordClusters {
  const map: WordClusters = new Map();
  file.fine.forEach((members, id) => {
    const pair = Object.freeze([id, file.coarseOfFine[id]!] as const);
    for (const w of members.split(' ')) if (w) map.set(w, pair);
  });
  return map;
}
