/**
 * How long a sentence says something took, in four classes. A car-service review's tone often
 * lies in a number: "the whole process took seven hours" is a complaint and "in and out in 40
 * minutes" praise, with no opinion word in either, and a model of words sees only "hours" and
 * "minutes". The classes give the polarity model the magnitude (docs/absa-model.md).
 */

import type { PreparedSentence } from './prepare.js';

/** A duration's class: up to 45 minutes, up to 100, up to four hours, longer (days included). */
export type DurationClass = 'minutes' | 'hour' | 'hours' | 'long';

const NUMBER_WORDS: ReadonlyMap<string, number> = new Map([
  ['a', 1],
  ['an', 1],
  ['one', 1],
  ['two', 2],
  ['three', 3],
  ['four', 4],
  ['five', 5],
  ['six', 6],
  ['seven', 7],
  ['eight', 8],
  ['nine', 9],
  ['ten', 10],
  ['eleven', 11],
  ['twelve', 12],
  ['fifteen', 15],
  ['twenty', 20],
  ['thirty', 30],
  ['forty', 40],
  ['fifty', 50],
  ['sixty', 60],
  ['ninety', 90],
  ['couple', 2],
  ['few', 3],
  ['several', 4],
]);

/** Minutes in one of each unit. */
const UNIT_MINUTES: ReadonlyMap<string, number> = new Map([
  ['min', 1],
  ['mins', 1],
  ['minute', 1],
  ['minutes', 1],
  ['hr', 60],
  ['hrs', 60],
  ['hour', 60],
  ['hours', 60],
  ['day', 60 * 24],
  ['days', 60 * 24],
  ['week', 60 * 24 * 7],
  ['weeks', 60 * 24 * 7],
  ['month', 60 * 24 * 30],
  ['months', 60 * 24 * 30],
]);

/** Words that make a day or part of one a long time ("all day", "the whole morning"). */
const WHOLE = new Set(['all', 'whole', 'entire']);
const DAY_PARTS = new Set(['day', 'morning', 'afternoon']);

function classOf(minutes: number): DurationClass {
  if (minutes <= 45) return 'minutes';
  if (minutes <= 100) return 'hour';
  if (minutes <= 240) return 'hours';
  return 'long';
}

/** The words and tokens of a prepared sentence that durations are read from. */
type Sentence = Pick<PreparedSentence, 'text' | 'offset' | 'tokens' | 'words'>;

/**
 * The number the token at `j` stands for (digits as written, or a number word), or null; "a" and
 * "an" count only where `articles` allows.
 */
function numberAt(p: Sentence, j: number, articles: boolean): number | null {
  const token = p.tokens[j];
  if (!token) return null;
  if (token.kind === 'num') {
    const digits = /^\d+(?:\.\d+)?$/.exec(
      p.text.slice(token.start - p.offset, token.end - p.offset),
    );
    return digits ? Number(digits[0]) : null;
  }
  const word = p.words[j]!;
  if (!articles && (word === 'a' || word === 'an')) return null;
  return NUMBER_WORDS.get(word) ?? null;
}

/**
 * How many minutes the unit at `i` makes with the words before it, or null when no number counts.
 * The nearest number counts, so a range ("4-5 hours", "4 5 hour") counts as its upper end.
 */
function minutesBefore(p: Sentence, i: number, unit: number): number | null {
  const back = [1, 2, 3, 4].map((k) => i - k).filter((j) => j >= 0);
  const half = back.find((j) => p.words[j] === 'half');
  if (half !== undefined) {
    // "half an hour", "two and a half hours", "a half day".
    for (const j of [half - 1, half - 2, half - 3]) {
      const n = numberAt(p, j, false);
      if (n !== null) return (n + 0.5) * unit;
    }
    return unit / 2;
  }
  for (const j of back.slice(0, 3)) {
    const n = numberAt(p, j, true);
    if (n !== null) return n * unit;
  }
  return null;
}

/**
 * The duration classes a sentence names, each once, in order of appearance. A unit counts when a
 * number stands at most three tokens before it ("4 5 hour", "a couple of hours", "two and a half
 * hours", "half my day"); a day, morning or afternoon also after "all", "whole" or "entire" (long).
 */
export function durationClasses(p: Sentence): DurationClass[] {
  const found: DurationClass[] = [];
  const note = (c: DurationClass): void => {
    if (!found.includes(c)) found.push(c);
  };
  p.words.forEach((w, i) => {
    const unit = UNIT_MINUTES.get(w);
    const minutes = unit === undefined ? null : minutesBefore(p, i, unit);
    if (minutes !== null) note(classOf(minutes));
    if (DAY_PARTS.has(w) && [p.words[i - 1], p.words[i - 2]].some((x) => x && WHOLE.has(x))) {
      note('long');
    }
  });
  return found;
}
