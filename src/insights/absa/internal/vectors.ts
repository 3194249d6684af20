/**
 * Word vectors shared by the models (`models/word-vectors.bin`): a pruned vocabulary of GloVe
 * vectors (unit length, quantised to int8) and, for each word, a sentiment score induced from the
 * VADER lexicon through the vectors (so "bland" or "cramped", absent from VADER, still score).
 */
export interface WordVectors {
  dim: number;
  /** Word to row number. */
  index: Map<string, number>;
  /** Row-major unit vectors, `dim` values per word. */
  data: Float32Array;
  /** Induced sentiment per word, roughly in [-1, 1] (VADER valence / 4). */
  sentiment: Float32Array;
}

/** Header (first line, JSON) of the binary vectors file; int8 vectors then int8 sentiments follow. */
export interface WordVectorsHeader {
  format: 'dealer-reviews-vectors/1';
  source: string;
  dim: number;
  words: string[];
  /** Sentiment int8 values are `round(score * sentimentScale)`. */
  sentimentScale: number;
}

/** Parses the binary vectors file: a JSON header line, then `words × dim` int8, then `words` int8. */
export function parseWordVectors(buffer: Uint8Array): WordVectors {
  const newline = buffer.indexOf(10);
  const header = JSON.parse(
    new TextDecoder().decode(buffer.subarray(0, newline)),
  ) as WordVectorsHeader;
  if (header.format !== 'dealer-reviews-vectors/1') throw new Error('unknown vectors format');
  const n = header.words.length;
  const dim = header.dim;
  const body = new Int8Array(buffer.buffer, buffer.byteOffset + newline + 1, n * dim + n);
  const data = new Float32Array(n * dim);
  for (let i = 0; i < n * dim; i++) data[i] = body[i]! / 127;
  const sentiment = new Float32Array(n);
  for (let i = 0; i < n; i++) sentiment[i] = body[n * dim + i]! / header.sentimentScale;
  return { dim, index: new Map(header.words.map((w, i) => [w, i])), data, sentiment };
}
