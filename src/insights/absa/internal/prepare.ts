import { detectLanguage } from '../../../domain/language.js';
import type { WordClusters } from './clusters.js';
import type { WordVectors } from './vectors.js';
import { markNegation } from './negation.js';
import { startsRunOnClause } from './run-on.js';
import { translateSpanishWord } from './spanish.js';
import { tokenize, type Token } from './tokenize.js';

/** A sentence ready for feature extraction. */
export interface PreparedSentence {
  /** The sentence, and the offset of its first character in the text its tokens are offsets of. */
  text: string;
  offset: number;
  tokens: Token[];
  /** Normalised words (Spanish words glossed into English), one per token. */
  words: string[];
  negated: boolean[];
  /** Clause number of each token; clauses break at punctuation and contrastive conjunctions. */
  clause: number[];
  clauseCount: number;
  language: 'en' | 'es';
  /** Fine and coarse word-cluster ids per token (-1 when the word has none). */
  fine: number[];
  coarse: number[];
  /** Row of each token's word vector (-1 when none), and the vectors (null when not used). */
  vec: number[];
  vectors: WordVectors | null;
  /** The model's sentence encoder (null when it uses none): embeddings of prepared texts. */
  embed: ((text: string) => Float32Array) | null;
}

const CLAUSE_PUNCT = new Set([',', ';', ':', '.', '!', '?', '(', ')', '-']);
const CLAUSE_WORDS = new Set([
  'but',
  'although',
  'though',
  'however',
  'while',
  'whereas',
  'yet',
  'except',
  'unless',
  'otherwise',
  'besides',
  'pero',
  'aunque',
  'sino',
]);

/**
 * Clause numbers of a sentence's words: clauses break at punctuation and contrastive words and,
 * with `runOn`, where a run-on sentence starts its next clause (`startsRunOnClause`).
 */
export function assignClauses(
  words: readonly string[],
  runOn = false,
): { clause: number[]; count: number } {
  const clause: number[] = [];
  let current = 0;
  let used = false;
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    const boundary =
      CLAUSE_PUNCT.has(w) ||
      CLAUSE_WORDS.has(w) ||
      (runOn && startsRunOnClause(words, i, CLAUSE_PUNCT));
    if (boundary && used) {
      current++;
      used = false;
    }
    clause.push(current);
    if (!boundary) used = true;
  }
  return { clause, count: used ? current + 1 : Math.max(1, current) };
}

/**
 * Tokenises one sentence and derives what every feature needs: normalised words, negation scope
 * and clause numbers. Spanish sentences (by stop-word vote, or `fallbackLanguage` when the sentence
 * is too short to tell) have their words glossed into English word by word, so English-trained
 * weights apply to them. `embed` is the model's sentence encoder, when it uses one (the sentence and
 * its clauses must have been encoded: see {@link embeddingTexts}).
 */
export function prepareSentence(
  text: string,
  clusters: WordClusters | null,
  offset = 0,
  fallbackLanguage: 'en' | 'es' = 'en',
  vectors: WordVectors | null = null,
  embed: ((text: string) => Float32Array) | null = null,
): PreparedSentence {
  const tokens = tokenize(text, offset);
  const language = detectLanguage(text) ?? fallbackLanguage;
  const words = tokens.map((t) => (language === 'es' ? translateSpanishWord(t.norm) : t.norm));
  const { clause, count } = assignClauses(words);
  const ids = words.map((w) => clusters?.get(w));
  return {
    text,
    offset,
    tokens,
    words,
    negated: markNegation(words),
    clause,
    clauseCount: count,
    language,
    fine: ids.map((c) => c?.[0] ?? -1),
    coarse: ids.map((c) => c?.[1] ?? -1),
    vec: vectors ? words.map((w) => vectors.index.get(w) ?? -1) : [],
    vectors,
    embed,
  };
}

/**
 * The text of clause `c` of a sentence: from its first to its last token that is not clause
 * punctuation (the whole sentence when the clause holds no such token).
 */
export function clauseText(
  p: PreparedSentence,
  c: number,
  clauses: readonly number[] = p.clause,
): string {
  let first = -1;
  let last = -1;
  for (let i = 0; i < p.tokens.length; i++) {
    if (clauses[i] !== c || CLAUSE_PUNCT.has(p.words[i]!)) continue;
    if (first < 0) first = i;
    last = i;
  }
  if (first < 0) return p.text;
  return p.text.slice(p.tokens[first]!.start - p.offset, p.tokens[last]!.end - p.offset);
}

/**
 * Every text a sentence encoder may be asked for when a sentence is scored: the sentence and each
 * of its clauses (prepared as `prepareSentence` with the same language fallback would).
 */
export function embeddingTexts(text: string, fallbackLanguage: 'en' | 'es' = 'en'): string[] {
  const p = prepareSentence(text, null, 0, fallbackLanguage);
  const texts = [text];
  for (let c = 0; c < p.clauseCount; c++) texts.push(clauseText(p, c));
  return texts;
}
