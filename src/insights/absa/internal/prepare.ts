import { detectLanguage } from '../../../domain/language.js';
import type { WordClusters } from './clusters.js';
import type { WordVectors } from './vectors.js';
import { markNegation } from './negation.js';
import { translateSpanishWord } from './spanish.js';
import { tokenize, type Token } from './tokenize.js';

/** A sentence ready for feature extraction. */
export interface PreparedSentence {
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

function assignClauses(words: readonly string[]): { clause: number[]; count: number } {
  const clause: number[] = [];
  let current = 0;
  let used = false;
  for (const w of words) {
    const boundary = CLAUSE_PUNCT.has(w) || CLAUSE_WORDS.has(w);
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
 * weights apply to them.
 */
export function prepareSentence(
  text: string,
  clusters: WordClusters | null,
  offset = 0,
  fallbackLanguage: 'en' | 'es' = 'en',
  vectors: WordVectors | null = null,
): PreparedSentence {
  const tokens = tokenize(text, offset);
  const language = detectLanguage(text) ?? fallbackLanguage;
  const words = tokens.map((t) => (language === 'es' ? translateSpanishWord(t.norm) : t.norm));
  const { clause, count } = assignClauses(words);
  const ids = words.map((w) => clusters?.get(w));
  return {
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
  };
}
