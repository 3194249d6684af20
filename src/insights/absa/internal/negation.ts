const NEGATORS = new Set([
  'not',
  'no',
  'never',
  'none',
  'nothing',
  'nobody',
  'nowhere',
  'neither',
  'nor',
  'cannot',
  'without',
  'hardly',
  'barely',
  'lack',
  'lacked',
  'lacking',
  'dont',
  'didnt',
  'doesnt',
  'wasnt',
  'werent',
  'isnt',
  'arent',
  'cant',
  'couldnt',
  'wont',
  'wouldnt',
  'shouldnt',
  'havent',
  'hasnt',
  'hadnt',
  'aint',
  'nunca',
  'sin',
  'ni',
  'jamás',
  'nada',
  'nadie',
]);

const SCOPE_ENDS = new Set([
  '.',
  ',',
  ':',
  ';',
  '!',
  '?',
  'but',
  'however',
  'although',
  'though',
  'pero',
]);

/** True for a token that opens a negation scope ("not", "never", any "…n't", Spanish "no", "nunca"). */
export function isNegator(norm: string): boolean {
  return NEGATORS.has(norm) || norm.endsWith("n't");
}

/**
 * Marks the tokens inside a negation scope, as NRC-Canada's 2014 system did: from just after a
 * negator up to the next clause punctuation or contrastive conjunction. Returns one flag per token.
 */
export function markNegation(words: readonly string[]): boolean[] {
  const flags = Array.from({ length: words.length }, () => false);
  let inScope = false;
  for (let i = 0; i < words.length; i++) {
    const norm = words[i]!;
    if (SCOPE_ENDS.has(norm)) {
      inScope = false;
      continue;
    }
    if (isNegator(norm)) {
      inScope = true;
      continue;
    }
    flags[i] = inScope;
  }
  return flags;
}
