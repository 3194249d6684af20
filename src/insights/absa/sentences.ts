/** A sentence of a review, with its exact character span in the review text. */
export interface SentenceSpan {
  /** `text.slice(start, end)` of the review: a verbatim substring, trimmed of outer white space. */
  text: string;
  start: number;
  end: number;
}

const ABBREVIATIONS = new Set([
  'mr',
  'mrs',
  'ms',
  'dr',
  'st',
  'jr',
  'sr',
  'vs',
  'etc',
  'inc',
  'co',
  'approx',
  'appt',
  'dept',
  'no',
  'sra',
  'sr',
  'ud',
  'uds',
  'lt',
  'mt',
  'ft',
  'est',
  'ave',
  'blvd',
]);

// A boundary is sentence punctuation followed by white space, or a line break.
const BOUNDARY_RE = /([.!?…]+["')\]]*)(\s+)|(\s*\n\s*)/gu;

function endsWithAbbreviation(text: string, end: number): boolean {
  const before = text.slice(Math.max(0, end - 12), end);
  const m = /(?:^|[^\p{L}])(\p{L}+)\.$/u.exec(before);
  if (!m) return false;
  const word = m[1]!;
  // Single letters are initials ("J. Smith") or parts of "a.m."; known abbreviations never end one.
  return word.length === 1 || ABBREVIATIONS.has(word.toLowerCase());
}

function pushTrimmed(out: SentenceSpan[], source: string, start: number, end: number): void {
  while (start < end && /\s/u.test(source[start]!)) start++;
  while (end > start && /\s/u.test(source[end - 1]!)) end--;
  if (end > start && /[\p{L}\p{N}]/u.test(source.slice(start, end))) {
    out.push({ text: source.slice(start, end), start, end });
  }
}

/**
 * Splits a review into sentences and returns each with its character offsets in the original text,
 * so that `text.slice(start, end) === sentence.text` always holds and quotes are verbatim.
 * Boundaries are `.`, `!`, `?` or `…` followed by white space (except after common abbreviations
 * and initials) and line breaks; spans without a letter or digit are dropped.
 */
export function splitSentences(text: string): SentenceSpan[] {
  const out: SentenceSpan[] = [];
  let start = 0;
  for (const m of text.matchAll(BOUNDARY_RE)) {
    const index = m.index ?? 0;
    if (m[1] !== undefined) {
      const punctEnd = index + m[1].length;
      if (m[1] === '.' && endsWithAbbreviation(text, punctEnd)) continue;
      pushTrimmed(out, text, start, punctEnd);
      start = punctEnd + m[2]!.length;
    } else {
      pushTrimmed(out, text, start, index);
      start = index + m[0].length;
    }
  }
  pushTrimmed(out, text, start, text.length);
  return out;
}
