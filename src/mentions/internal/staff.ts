import type { StaffMember } from '../../domain/business.js';
import { COMMON_WORD_NAMES, SENTENCE_VERB_NAMES } from './common-words.js';
import { tokenize, withinOneEdit, type Token } from './tokens.js';

/** One way of naming a staff member: a full name, a unique first name, or an alias. */
interface NameKey {
  staff: StaffMember;
  /** Tokens of the full name, or a single token for a first name or alias. */
  words: string[];
  /** Needs a capital letter (the name is also an everyday word). */
  needsCapital: boolean;
  /** Not matched as the first word of a sentence ("Will be back", "Hope to return"). */
  notSentenceStart: boolean;
}

/** The staff roster compiled for matching. */
export interface StaffIndex {
  keys: Map<string, NameKey[]>;
  fuzzyKeys: NameKey[];
  byFullName: Map<string, StaffMember>;
}

const MIN_FUZZY_LENGTH = 5;
const NICKNAME_RE = /["“”]([^"“”]+)["“”]|\(([^()]+)\)/g;

function words(text: string): string[] {
  return tokenize(text).map((t) => t.raw);
}

/** A roster name without its quoted nickname (`Adrian "AJ" Cortes`), and the nicknames. */
export function splitStaffName(name: string): { words: string[]; nicknames: string[] } {
  const nicknames = [...name.matchAll(NICKNAME_RE)].map((m) => (m[1] ?? m[2])!.trim());
  return { words: words(name.replace(NICKNAME_RE, ' ')), nicknames };
}

/** The normalised full name used to recognise a tagged name on the roster. */
export function fullNameKey(name: string): string {
  return splitStaffName(name).words.join(' ');
}

function singleWordKey(staff: StaffMember, word: string): NameKey {
  const common = COMMON_WORD_NAMES.has(word);
  return {
    staff,
    words: [word],
    needsCapital: common,
    notSentenceStart: SENTENCE_VERB_NAMES.has(word),
  };
}

/** Compiles the roster: full names, first names unique on the roster, nicknames and aliases. */
export function buildStaffIndex(staff: readonly StaffMember[]): StaffIndex {
  const split = staff.map((s) => ({ s, ...splitStaffName(s.name) }));
  const firstCounts = new Map<string, number>();
  for (const { words: w } of split) {
    if (w[0]) firstCounts.set(w[0], (firstCounts.get(w[0]) ?? 0) + 1);
  }
  const keys = new Map<string, NameKey[]>();
  const add = (key: NameKey): void => {
    const head = key.words[0]!;
    keys.set(head, [...(keys.get(head) ?? []), key]);
  };
  for (const { s, words: w, nicknames } of split) {
    if (w.length === 0) continue;
    if (w.length > 1) add({ staff: s, words: w, needsCapital: false, notSentenceStart: false });
    if (firstCounts.get(w[0]!) === 1) add(singleWordKey(s, w[0]!));
    for (const alias of [...nicknames, ...s.aliases]) {
      const aw = words(alias);
      if (aw.length > 1) add({ staff: s, words: aw, needsCapital: false, notSentenceStart: false });
      else if (aw.length === 1) add({ ...singleWordKey(s, aw[0]!), needsCapital: true });
    }
  }
  // Longer keys first, so "Mike Torres" is tried before a first name or alias.
  const longestFirst = (a: NameKey, b: NameKey): number => b.words.length - a.words.length;
  for (const list of keys.values()) list.sort(longestFirst);
  const fuzzyKeys = [...keys.values()]
    .flat()
    .filter((k) => k.words[0]!.length >= MIN_FUZZY_LENGTH)
    .sort(longestFirst);
  const byFullName = new Map(split.map(({ s, words: w }) => [w.join(' '), s]));
  return { keys, fuzzyKeys, byFullName };
}

function tokenMatches(token: Token, word: string): boolean {
  if (token.word === word) return true;
  // "Mikes car" (possessive without apostrophe) on a capitalised word.
  if (token.capitalized && token.word === `${word}s` && word.length >= 4) return true;
  // One-letter misspellings, only of capitalised words and names of five letters or more.
  if (!token.capitalized || word.length < MIN_FUZZY_LENGTH) return false;
  return token.word[0] === word[0] && withinOneEdit(token.word, word);
}

function keyMatchesAt(tokens: readonly Token[], i: number, key: NameKey): boolean {
  const first = tokens[i]!;
  if (key.needsCapital && !first.capitalized) return false;
  if (key.words.length === 1 && key.notSentenceStart && first.sentenceStart) return false;
  for (let k = 0; k < key.words.length; k++) {
    const tk = tokens[i + k];
    if (!tk || !tokenMatches(tk, key.words[k]!)) return false;
  }
  return true;
}

/** The staff named in the tokens, in order of first mention. */
export function matchStaff(tokens: readonly Token[], index: StaffIndex): StaffMember[] {
  const found = new Map<string, StaffMember>();
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    const candidates =
      index.keys.get(t.word) ??
      (t.capitalized && t.word.endsWith('s') ? index.keys.get(t.word.slice(0, -1)) : undefined) ??
      (t.capitalized ? index.fuzzyKeys : []);
    for (const key of candidates) {
      if (found.has(key.staff.id)) continue;
      if (keyMatchesAt(tokens, i, key)) found.set(key.staff.id, key.staff);
    }
  }
  return [...found.values()];
}

/**
 * The roster member a source-given name (a DealerRater tag or free-text name) stands for: the
 * same full name (a quoted nickname aside), or the one member the name matches as text would
 * ("Tristan" for Tristian Olivares). `null` when it names nobody, or several people.
 */
export function resolveStaff(name: string, index: StaffIndex): StaffMember | null {
  const exact = index.byFullName.get(fullNameKey(name));
  if (exact) return exact;
  const tokens = tokenize(name).map((t) => ({ ...t, capitalized: true, sentenceStart: false }));
  const found = matchStaff(tokens, index);
  return found.length === 1 ? found[0]! : null;
}
