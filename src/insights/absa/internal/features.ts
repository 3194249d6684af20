import { durationClasses } from './durations.js';
import type { FeatureConfig } from './feature-config.js';
import { clauseText, type PreparedSentence } from './prepare.js';

export type { FeatureConfig } from './feature-config.js';

/** A feature bag: feature name to value (counts for n-grams, real values for lexicon scores). */
export type FeatureBag = Map<string, number>;

function add(bag: FeatureBag, name: string, value = 1): void {
  bag.set(name, (bag.get(name) ?? 0) + value);
}

function finish(bag: FeatureBag, config: FeatureConfig): FeatureBag {
  if (!config.normalize) return bag;
  let sum = 0;
  for (const v of bag.values()) sum += v * v;
  const norm = Math.sqrt(sum) || 1;
  for (const [k, v] of bag) bag.set(k, v / norm);
  return bag;
}

function isWord(w: string): boolean {
  return /[\p{L}\p{N}<]/u.test(w[0] ?? '');
}

function addCharNgrams(bag: FeatureBag, w: string, range: [number, number]): void {
  const padded = `<${w}>`;
  for (let n = range[0]; n <= range[1]; n++) {
    for (let i = 0; i + n <= padded.length; i++) add(bag, `c:${padded.slice(i, i + n)}`);
  }
}

/** Adds the mean of the word vectors of the kept tokens, times `scale`, as features `prefix:d`. */
function addMeanVector(
  bag: FeatureBag,
  prefix: string,
  p: PreparedSentence,
  scale: number,
  keep: (i: number) => boolean,
): void {
  const vectors = p.vectors!;
  const dim = vectors.dim;
  const sum = new Float64Array(dim);
  let n = 0;
  for (let i = 0; i < p.vec.length; i++) {
    const row = p.vec[i]!;
    if (row < 0 || !keep(i)) continue;
    const base = row * dim;
    for (let d = 0; d < dim; d++) sum[d]! += vectors.data[base + d]!;
    n++;
  }
  if (n === 0) return;
  for (let d = 0; d < dim; d++) if (sum[d] !== 0) add(bag, `${prefix}:${d}`, (scale * sum[d]!) / n);
}

/** Adds a sentence embedding, times `scale`, as features `prefix:d`. */
function addEmbedding(bag: FeatureBag, prefix: string, e: Float32Array, scale: number): void {
  for (let d = 0; d < e.length; d++) if (e[d] !== 0) add(bag, `${prefix}:${d}`, scale * e[d]!);
}

/**
 * Features for aspect-category detection: word unigrams and bigrams, character n-grams inside
 * words and word-cluster ids. Negation is not marked here: "no wait" still talks about waiting.
 */
export function detectionFeatures(p: PreparedSentence, config: FeatureConfig): FeatureBag {
  const bag: FeatureBag = new Map();
  let prev = '<s>';
  p.words.forEach((w, i) => {
    if (!isWord(w)) {
      prev = '|';
      return;
    }
    add(bag, `w:${w}`);
    add(bag, `b:${prev} ${w}`);
    prev = w;
    if (config.charNgrams && w.length >= 3) addCharNgrams(bag, w, config.charNgrams);
    if (config.clusters && p.fine[i]! >= 0) {
      add(bag, `k:${p.fine[i]}`);
      add(bag, `kc:${p.coarse[i]}`);
    }
  });
  add(bag, `b:${prev} </s>`);
  if (config.vectors && p.vectors) addMeanVector(bag, 'v', p, config.vectors, () => true);
  const embedding = config.sentenceEmbedding;
  if (embedding?.detect && p.embed) addEmbedding(bag, 'u', p.embed(p.text), embedding.detect);
  return finish(bag, config);
}

/** What polarity features need to know about the category being judged. */
export interface CategoryContext {
  id: string;
  /** Detection weight of a word for this category (0 when unknown). */
  anchorWeight: (word: string) => number;
}

function lexiconScores(p: PreparedSentence, lexicon: ReadonlyMap<string, number>): number[] {
  return p.words.map((w, i) => {
    const v = (lexicon.get(w) ?? 0) / 4;
    return p.negated[i] ? -0.74 * v : v;
  });
}

function inducedScores(p: PreparedSentence): number[] {
  const sentiment = p.vectors!.sentiment;
  return p.vec.map((row, i) => {
    const v = row < 0 ? 0 : sentiment[row]!;
    return p.negated[i] ? -0.74 * v : v;
  });
}

function addLexicon(
  bag: FeatureBag,
  prefix: string,
  scores: readonly number[],
  keep: (i: number) => boolean,
  weight: (i: number) => number = () => 1,
): void {
  let pos = 0;
  let neg = 0;
  let last = 0;
  for (let i = 0; i < scores.length; i++) {
    const s = scores[i]!;
    if (s === 0 || !keep(i)) continue;
    const w = weight(i);
    if (s > 0) pos += s * w;
    else neg -= s * w;
    last = s;
  }
  if (pos > 0) add(bag, `${prefix}+`, pos);
  if (neg > 0) add(bag, `${prefix}-`, neg);
  if (last !== 0) add(bag, `${prefix}last${last > 0 ? '+' : '-'}`);
}

function addNgrams(
  bag: FeatureBag,
  prefix: string,
  marked: readonly string[],
  keep: (i: number) => boolean,
  category?: string,
): void {
  let prev = '<s>';
  for (let i = 0; i < marked.length; i++) {
    if (!keep(i)) continue;
    const w = marked[i]!;
    add(bag, `${prefix}:${w}`);
    add(bag, `${prefix}2:${prev} ${w}`);
    if (category) add(bag, `${category}|${prefix}:${w}`);
    prev = w;
  }
}

function bestClause(p: PreparedSentence, weights: readonly number[], threshold: number): number {
  const relevance = new Array<number>(p.clauseCount).fill(0);
  for (let i = 0; i < weights.length; i++) {
    if (weights[i]! > 0) relevance[p.clause[i]!]! += weights[i]!;
  }
  let best = -1;
  let bestScore = threshold;
  relevance.forEach((r, k) => {
    if (r >= bestScore) {
      best = k;
      bestScore = r;
    }
  });
  return best;
}

/**
 * Each token's distance in tokens to the nearest anchor of the category, or null when the
 * sentence has none.
 */
export function anchorDistances(
  p: PreparedSentence,
  category: CategoryContext,
  threshold: number,
): number[] | null {
  // Two sweeps: the nearest anchor on the left, then on the right.
  let last = -Infinity;
  const distances = p.words.map((w, i) => {
    if (isWord(w) && category.anchorWeight(w) >= threshold) last = i;
    return i - last;
  });
  if (last === -Infinity) return null;
  let next = Infinity;
  for (let i = distances.length - 1; i >= 0; i--) {
    if (distances[i] === 0) next = i;
    distances[i] = Math.min(distances[i]!, next - i);
  }
  return distances;
}

/**
 * Features for the polarity of one category in one sentence (SemEval subtask 4). Besides the
 * sentence's negation-marked n-grams and lexicon scores (as NRC-Canada's system), they locate the
 * category: words whose detection weight marks them as anchors pick the clause that talks about the
 * category, whose n-grams and lexicon scores get their own features, and lexicon scores are also
 * weighted by distance to the nearest anchor. This is what lets two aspects of one sentence differ.
 */
export function polarityFeatures(
  p: PreparedSentence,
  category: CategoryContext,
  lexicon: ReadonlyMap<string, number>,
  config: FeatureConfig,
): FeatureBag {
  const bag: FeatureBag = new Map();
  const marked = p.words.map((w, i) => (p.negated[i] ? `${w}_NEG` : w));
  const scores = lexiconScores(p, lexicon);
  const weights = p.words.map((w) => (isWord(w) ? category.anchorWeight(w) : 0));
  const cat = category.id;
  const all = (): boolean => true;
  addNgrams(bag, 'g', marked, all, cat);
  addLexicon(bag, 'lex', scores, all);
  const induced = config.induced && p.vectors ? inducedScores(p) : null;
  if (induced) addLexicon(bag, 'ilex', induced, all);
  const clause = bestClause(p, weights, config.anchorThreshold);
  if (clause < 0) {
    add(bag, 'noanchor');
    add(bag, `${cat}|noanchor`);
  } else {
    const inClause = (i: number): boolean => p.clause[i] === clause;
    addNgrams(bag, 'l', marked, inClause, cat);
    addLexicon(bag, 'llex', scores, inClause);
    addLexicon(bag, 'olex', scores, (i) => !inClause(i));
    if (induced) addLexicon(bag, 'lilex', induced, inClause);
    if (config.polarityVectors && p.vectors)
      addMeanVector(bag, 'pv', p, config.polarityVectors, inClause);
    const distances = anchorDistances(p, category, config.anchorThreshold);
    if (distances) {
      const near = (i: number): number => 1 / (1 + distances[i]!);
      addLexicon(bag, 'dlex', scores, all, near);
      if (induced) addLexicon(bag, 'dilex', induced, all, near);
      marked.forEach((w, i) => {
        if (isWord(w)) add(bag, `d:${w}`, near(i));
      });
      const window = config.polarityWindow ?? 0;
      if (window > 0) {
        const close = (i: number): boolean => distances[i]! <= window;
        addNgrams(bag, 'win', marked, close, cat);
        addLexicon(bag, 'wlex', scores, close);
      }
    }
  }
  if (clause < 0 && config.polarityVectors && p.vectors)
    addMeanVector(bag, 'pv', p, config.polarityVectors, all);
  if (p.words.includes('!')) add(bag, 'excl');
  if (config.durations) {
    for (const d of durationClasses(p)) {
      add(bag, `dur:${d}`);
      add(bag, `${cat}|dur:${d}`);
    }
  }
  const embedding = config.sentenceEmbedding;
  if (embedding?.polarity && p.embed) {
    // The category's clause: aspects of one sentence can differ. The whole sentence's embedding
    // may come beside it (its tone, what the clause alone leaves out), never instead of it.
    const text = clause < 0 ? p.text : clauseText(p, clause);
    addEmbedding(bag, 'uc', p.embed(text), embedding.polarity);
    if (embedding.polaritySentence)
      addEmbedding(bag, 'us', p.embed(p.text), embedding.polaritySentence);
  }
  add(bag, `${cat}|bias`);
  return finish(bag, config);
}
