/** One token of a text, with its character offsets in that text. */
export interface Token {
  /** Lower-cased, normalised form used for features. */
  norm: string;
  start: number;
  end: number;
  kind: 'word' | 'num' | 'punct';
}

const TOKEN_RE =
  /[\p{L}\p{M}]+(?:['’][\p{L}\p{M}]+)*|\d+(?:[.,:]\d+)*(?:%|st|nd|rd|th)?|[!?.,;:]+|[$%&+/()"-]|[^\s\p{L}\p{M}\p{N}]/gu;

function normalizeWord(raw: string): string {
  // Collapse elongations ("sooooo" -> "soo") and curly apostrophes.
  return raw
    .toLowerCase()
    .replace(/’/g, "'")
    .replace(/(\p{L})\1{2,}/gu, '$1$1');
}

function punctuationNorm(raw: string): string {
  if (raw.includes('!')) return '!';
  if (raw.includes('?')) return '?';
  return raw[0] ?? raw;
}

/**
 * Splits a text into word, number and punctuation tokens with their exact character offsets.
 * Words are lower-cased, curly apostrophes straightened and letter runs of three or more cut to two;
 * numbers become `<num>` and runs of sentence punctuation collapse to their first character.
 */
export function tokenize(text: string, offset = 0): Token[] {
  const tokens: Token[] = [];
  for (const m of text.matchAll(TOKEN_RE)) {
    const raw = m[0];
    const start = offset + (m.index ?? 0);
    const end = start + raw.length;
    const first = raw.codePointAt(0) ?? 0;
    if (/\p{L}/u.test(String.fromCodePoint(first))) {
      tokens.push({ norm: normalizeWord(raw), start, end, kind: 'word' });
    } else if (first >= 48 && first <= 57) {
      tokens.push({ norm: '<num>', start, end, kind: 'num' });
    } else {
      const norm = /^[!?.,;:]+$/.test(raw) ? punctuationNorm(raw) : raw;
      tokens.push({ norm, start, end, kind: 'punct' });
    }
  }
  return tokens;
}
