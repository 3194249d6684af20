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

/** Builds the word-to-cluster map from the shipped clusters file. */
export function parseWordClusters(file: WordClustersFile): WordClusters {
  const map: WordClusters = new Map();
  file.fine.forEach((members, id) => {
    const coarse = file.coarseOfFine[id]!;
    for (const w of members.split(' ')) if (w) map.set(w, [id, coarse]);
  });
  return map;
}
