/** A word of review text: its lower-cased form (possessive removed) and whether it was capitalised. */
export interface Token {
  word: string;
  capitalized: boolean;
  /** The form before the possessive was removed, lower-cased. */
  raw: string;
  /** First word of the text or of a sentence (after `.`, `!`, `?` or a line break). */
  sentenceStart: boolean;
}

const WORD_RE = /[\p{L}\p{N}]+(?:['’][\p{L}]+)*/gu;
const SKIPPED_BEFORE = new Set([' ', '\t', '"', "'", '“', '”', '‘', '’', '(', '[', '*', '-', '–']);
const SENTENCE_END = new Set(['.', '!', '?', '\n', '\r', '…']);

function startsSentence(text: string, index: number): boolean {
  let i = index - 1;
  while (i >= 0 && SKIPPED_BEFORE.has(text[i]!)) i--;
  return i < 0 || SENTENCE_END.has(text[i]!);
}

/** Splits text into word tokens; `Mike's` and `Mike’s` become `mike`, flagged capitalised. */
export function tokenize(text: string): Token[] {
  const out: Token[] = [];
  for (const m of text.matchAll(WORD_RE)) {
    const original = m[0];
    const lower = original.toLowerCase();
    let word = lower;
    if (word.endsWith("'s") || word.endsWith('’s')) word = word.slice(0, -2);
    const first = original[0]!;
    out.push({
      word,
      raw: lower,
      capitalized: first !== first.toLowerCase(),
      sentenceStart: startsSentence(text, m.index),
    });
  }
  return out;
}

/** True when `a` and `b` differ by at most one insertion, deletion, substitution or adjacent swap. */
export function withinOneEdit(a: string, b: string): boolean {
  if (a === b) return true;
  const la = a.length;
  const lb = b.length;
  if (Math.abs(la - lb) > 1) return false;
  if (la === lb) {
    let i = 0;
    while (i < la && a[i] === b[i]) i++;
    if (i === la) return true;
    // substitution
    if (a.slice(i + 1) === b.slice(i + 1)) return true;
    // adjacent transposition
    return a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2);
  }
  const [s, l] = la < lb ? [a, b] : [b, a];
  let i = 0;
  while (i < s.length && s[i] === l[i]) i++;
  return s.slice(i) === l.slice(i + 1);
}
