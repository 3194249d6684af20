import type { Rng } from './prng.js';
import { ROSTER } from './roster.js';
import { TYPOS } from './text/typos.js';
import type { Polarity, Visit, Voice } from './visit-types.js';

/** A sentence before its surface is decided: no final punctuation, no capital yet. */
export interface Sentence {
  text: string;
  pol: Polarity | null;
  kind: 'frame' | 'op' | 'story';
}

interface VoiceStyle {
  contract: number;
  dropApostrophes: number;
  typo: number;
  lowerStart: number;
  emoji: number;
}

const STYLE: Readonly<Record<Voice, VoiceStyle>> = {
  plain: { contract: 0.6, dropApostrophes: 0.05, typo: 0.006, lowerStart: 0, emoji: 0.02 },
  casual: { contract: 0.92, dropApostrophes: 0.5, typo: 0.035, lowerStart: 0.35, emoji: 0.06 },
  gushing: { contract: 0.8, dropApostrophes: 0.1, typo: 0.012, lowerStart: 0, emoji: 0.2 },
  formal: { contract: 0, dropApostrophes: 0, typo: 0.002, lowerStart: 0, emoji: 0 },
  terse: { contract: 0.7, dropApostrophes: 0.2, typo: 0.01, lowerStart: 0.1, emoji: 0 },
  angry: { contract: 0.7, dropApostrophes: 0.2, typo: 0.025, lowerStart: 0, emoji: 0.08 },
  lower: { contract: 0.9, dropApostrophes: 0.6, typo: 0.04, lowerStart: 1, emoji: 0.03 },
};

const CONTRACTIONS: Readonly<Record<string, string>> = {
  'do not': "don't",
  'does not': "doesn't",
  'did not': "didn't",
  'is not': "isn't",
  'was not': "wasn't",
  'were not': "weren't",
  'could not': "couldn't",
  'would not': "wouldn't",
  cannot: "can't",
  'will not': "won't",
  'have not': "haven't",
  'i am': "I'm",
  'i have been': "I've been",
  'i have ever': "I've ever",
  'i have never': "I've never",
  'i have had': "I've had",
  'we have been': "we've been",
  'we have ever': "we've ever",
  'we have had': "we've had",
  'it is': "it's",
  'they are': "they're",
  'that is': "that's",
  'there is': "there's",
  'he will': "he'll",
  'she will': "she'll",
  'i will': "I'll",
  'we will': "we'll",
  'you will': "you'll",
  'would have': "would've",
};
// The keys of CONTRACTIONS, factorised so the engine tests few alternatives at each word.
const CONTRACTION_RE =
  /\b(?:(?:do|does|did|is|was|were|could|would|will|have) not|cannot|i am|(?:i|we) have (?:been|ever|never|had)|it is|they are|that is|there is|(?:he|she|i|we|you) will(?! not)|would have)\b(?! ok\b)/gi;

const POS_EMOJI = ['👍', '🙏', '😊', '💯', '🔥', '🙌', '👏', '⭐⭐⭐⭐⭐', '😀', '❤️'];
const NEG_EMOJI = ['😡', '🤬', '👎', '😤', '🙄', '😠'];

const PROTECTED = new Set(
  ROSTER.flatMap((e) => [...e.name.split(/\s+/), ...e.aliases, ...e.misspellings]).map((w) =>
    w.toLowerCase(),
  ),
);

/** Collapses the doubled spaces that empty alternatives leave, and spaces before punctuation. */
export function tidy(text: string): string {
  let out = text;
  if (out.includes('  ')) out = out.replace(/ {2,}/g, ' ');
  if (/ [,.!?]/.test(out)) out = out.replace(/ ([,.!?])/g, '$1');
  return out.charCodeAt(0) === 32 || out.charCodeAt(out.length - 1) === 32 ? out.trim() : out;
}

/** Contracts "do not", "I am", "it is"... the way most people write. */
export function contract(text: string): string {
  return text.replace(CONTRACTION_RE, (m) => {
    const to = CONTRACTIONS[m.toLowerCase()];
    if (to === undefined) return m;
    return m[0] === m[0]!.toUpperCase() ? to.charAt(0).toUpperCase() + to.slice(1) : to;
  });
}

const isUpper = (c: number): boolean => c >= 65 && c <= 90;
const isLetter = (c: number): boolean => isUpper(c) || (c >= 97 && c <= 122);

function lowerFirst(s: string): string {
  // Keep names, "I", "Mr." and acronyms as written; lower-case only ordinary sentence openers.
  if (!isUpper(s.charCodeAt(0))) return s;
  let end = 1;
  let inner = false;
  while (end < s.length && isLetter(s.charCodeAt(end))) {
    if (isUpper(s.charCodeAt(end))) inner = true;
    end++;
  }
  const word = s.slice(0, end);
  if (inner || word === 'I' || word === 'Mr' || word === 'Ms' || PROTECTED.has(word.toLowerCase()))
    return s;
  return s.charAt(0).toLowerCase() + s.slice(1);
}

function upperFirst(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

const TO_NEG = ['but', 'however,', 'unfortunately', 'that said,', 'on the other hand,'];
const TO_POS = ['but', 'luckily', 'thankfully', 'on the bright side,', 'that said,'];
const MORE_POS = ['also', 'plus', 'on top of that,', 'and', 'not only that but'];
const MORE_NEG = [
  'also',
  'oh and',
  'on top of that,',
  'to make matters worse,',
  'not to mention',
  'plus',
];

function connect(sentences: Sentence[], v: Visit, rng: Rng): string[] {
  const out: string[] = [];
  let prev: Sentence | null = null;
  const lastOp = sentences.map((s) => s.kind).lastIndexOf('op');
  sentences.forEach((s, i) => {
    let text = s.text;
    if (prev && prev.kind === 'op' && s.kind === 'op' && prev.pol && s.pol && out.length > 0) {
      // Praise against complaint; a neutral remark reads as neither.
      const differ =
        (prev.pol === 'pos' && s.pol === 'neg') || (prev.pol === 'neg' && s.pol === 'pos');
      const r = rng.next();
      if (differ && r < 0.35) {
        out[out.length - 1] +=
          rng.pick([', but ', ' but ', ', though ', ', although ']) + lowerFirst(text);
        prev = s;
        return;
      }
      if (differ && r < 0.65) {
        const only =
          i === lastOp && v.valence === 'mixed-pos'
            ? rng.pick([
                'the only downside was that',
                'my only complaint is that',
                'only thing I would say is',
              ])
            : i === lastOp && v.valence === 'mixed-neg'
              ? rng.pick([
                  'the only good thing was that',
                  v.rating >= 2 ? 'the only reason for the extra star is that' : 'to be fair,',
                  'to be fair,',
                ])
              : null;
        text = `${only ?? rng.pick(s.pol === 'pos' ? TO_POS : TO_NEG)} ${lowerFirst(text)}`;
      } else if (!differ && r < 0.12) {
        out[out.length - 1] += ` and ${lowerFirst(text)}`;
        prev = s;
        return;
      } else if (!differ && r < 0.32) {
        text = `${rng.pick(s.pol === 'pos' ? MORE_POS : MORE_NEG)} ${lowerFirst(text)}`;
      }
    }
    out.push(text);
    prev = s;
  });
  return out;
}

function ending(voice: Voice, positive: boolean, rng: Rng, text: string): string {
  if (/\? Are you [^?]*$/.test(text)) return '?';
  if (/[.!?]$/.test(text)) return '';
  switch (voice) {
    case 'gushing':
      return rng.pick(['!', '!!', '!!!', '.', '!']);
    case 'angry':
      return rng.pick(['!', '!!!', '.', '!!', '.']);
    case 'casual':
      return rng.pick(['.', '!', '..', '.', '!!', '', '.', '!', '.', '.']);
    case 'lower':
      return rng.pick(['', '.', '.', '!', '..']);
    case 'terse':
      return rng.pick(['.', '.', '', '!']);
    default:
      return positive ? rng.pick(['.', '.', '!', '.']) : '.';
  }
}

function typoWord(word: string, rng: Rng): string {
  const lower = word.toLowerCase();
  if (PROTECTED.has(lower)) return word;
  const alts = TYPOS[lower];
  if (alts) {
    const alt = rng.pick(alts);
    return word[0] === word[0]!.toUpperCase() && word[0] !== word[0]!.toLowerCase()
      ? upperFirst(alt)
      : alt;
  }
  if (word.length >= 6 && /^[a-z]+$/.test(word)) {
    const i = rng.int(1, word.length - 3);
    return word.slice(0, i) + word[i + 1] + word[i] + word.slice(i + 2);
  }
  return word;
}

function addTypos(text: string, rate: number, rng: Rng): string {
  if (rate <= 0) return text;
  // Draw how many words to garble (Poisson, mean rate x words), then which ones; most reviews
  // get none, so the text is only scanned when there is something to do.
  const words = text.length / 5.5;
  let k = 0;
  for (let p = Math.exp(-rate * words), u = rng.next(), c = p; u > c && k < 8; k++) {
    p *= (rate * words) / (k + 1);
    c += p;
  }
  let out = text;
  if (k > 0) {
    const spans = [...text.matchAll(/[A-Za-z']+/g)];
    const chosen = new Set<number>();
    for (let i = 0; i < k && spans.length > 0; i++) chosen.add(rng.int(0, spans.length - 1));
    for (const i of [...chosen].sort((a, b) => b - a)) {
      const m = spans[i]!;
      out = out.slice(0, m.index) + typoWord(m[0], rng) + out.slice(m.index + m[0].length);
    }
  }
  if (rng.chance(rate * 5)) out = out.replace(/\ba lot\b/, 'alot');
  return out;
}

function dropApostrophes(text: string): string {
  return text.replace(/(\w)['’](t|m|s|re|ll|ve|d)\b/g, '$1$2');
}

function paragraphs(parts: string[], v: Visit, rng: Rng): string {
  const n = parts.length;
  const count =
    v.length === 'epic'
      ? rng.int(2, Math.min(4, Math.max(2, Math.floor(n / 2))))
      : v.length === 'long' && rng.chance(0.5)
        ? 2
        : 1;
  if (count <= 1 || n < 3) return parts.join(rng.chance(0.04) ? '  ' : ' ');
  const sep = rng.chance(0.75) ? '\n\n' : '\n';
  const size = Math.ceil(n / count);
  const blocks: string[] = [];
  for (let i = 0; i < n; i += size) blocks.push(parts.slice(i, i + size).join(' '));
  return blocks.join(sep);
}

/**
 * Turns planned sentences into the text a person with this voice would post: joins opinions
 * with "but" and "also", contracts, capitalises and punctuates (or not), shouts in capitals when
 * angry, adds everyday typos, drops apostrophes, breaks long reviews into paragraphs, appends
 * the edit paragraph, and now and then an emoji.
 */
export function finishText(
  sentences: Sentence[],
  v: Visit,
  rng: Rng,
  update: string | null,
): string {
  const style = STYLE[v.voice];
  const positive = v.valence === 'pos' || v.valence === 'mixed-pos';
  const contracting = rng.chance(style.contract);
  const parts = connect(sentences, v, rng).map((raw) => {
    let s = tidy(raw);
    if (contracting) s = contract(s);
    s = s.replace(/\b([Aa]) (SUV|LOF|[AEIO][a-z])/g, '$1n $2');
    s = rng.chance(style.lowerStart) ? lowerFirst(s) : upperFirst(s);
    s += ending(v.voice, positive, rng, s);
    if (v.voice === 'angry' && rng.chance(0.3)) s = s.toUpperCase();
    return s;
  });
  if (v.voice === 'gushing' && rng.chance(0.3)) {
    const i = rng.int(0, parts.length - 1);
    parts[i] = parts[i]!.replace(/\b(great|amazing|awesome|excellent|best)\b/i, (w) =>
      w.toUpperCase(),
    );
  }
  let text = paragraphs(parts, v, rng);
  text = addTypos(text, style.typo, rng);
  if (v.voice === 'casual' && rng.chance(0.3)) text = text.replace(/\bI\b/g, 'i');
  if (v.voice === 'lower') text = text.toLowerCase();
  if (rng.chance(style.dropApostrophes)) text = dropApostrophes(text);
  if (update) text += (rng.chance(0.8) ? '\n\n' : ' ') + (contracting ? contract(update) : update);
  if (rng.chance(style.emoji)) {
    const e = rng.pick(positive ? POS_EMOJI : NEG_EMOJI);
    text += rng.chance(0.7) ? ` ${e}` : e;
  }
  return text.trim();
}
