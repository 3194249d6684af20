import type { Business, Service, StaffMember } from '../domain/business.js';
import type { TaggedStaff, TechnicianMention } from '../domain/review.js';
import { COMMON_WORD_NAMES } from './internal/common-words.js';
import { tokenize, withinOneEdit, type Token } from './internal/tokens.js';

/** What the matcher reads from a review. */
export interface MentionText {
  name: string | null;
  reviewBody: string | null;
}

export interface Mentions {
  technicians: TechnicianMention[];
  services: string[];
}

/** Finds staff and services named in review text, from the business's roster and catalogue. */
export interface MentionMatcher {
  match(text: MentionText, tagged?: readonly TaggedStaff[]): Mentions;
}

interface NameKey {
  staff: StaffMember;
  /** Tokens of the full name, or a single token for a first name or alias. */
  words: string[];
  full: boolean;
  needsCapital: boolean;
}

interface Phrase {
  serviceId: string;
  words: string[];
}

const MIN_FUZZY_LENGTH = 5;

function nameWords(name: string): string[] {
  return tokenize(name).map((t) => t.raw);
}

function buildNameKeys(staff: readonly StaffMember[]): Map<string, NameKey[]> {
  const firstCounts = new Map<string, number>();
  for (const s of staff) {
    const first = nameWords(s.name)[0];
    if (first) firstCounts.set(first, (firstCounts.get(first) ?? 0) + 1);
  }
  const keys = new Map<string, NameKey[]>();
  const add = (key: NameKey): void => {
    const head = key.words[0]!;
    const list = keys.get(head) ?? [];
    list.push(key);
    keys.set(head, list);
  };
  for (const s of staff) {
    const words = nameWords(s.name);
    if (words.length === 0) continue;
    if (words.length > 1) add({ staff: s, words, full: true, needsCapital: false });
    const first = words[0]!;
    if (firstCounts.get(first) === 1) {
      add({ staff: s, words: [first], full: false, needsCapital: COMMON_WORD_NAMES.has(first) });
    }
    for (const alias of s.aliases) {
      const aw = nameWords(alias);
      if (aw.length > 0) add({ staff: s, words: aw, full: aw.length > 1, needsCapital: true });
    }
  }
  return keys;
}

function tokenMatches(token: Token, word: string, fuzzy: boolean): boolean {
  if (token.word === word) return true;
  // "Mikes car" (possessive without apostrophe) on a capitalised word.
  if (token.capitalized && token.word === `${word}s` && word.length >= 4) return true;
  if (!fuzzy || !token.capitalized || word.length < MIN_FUZZY_LENGTH) return false;
  return token.word[0] === word[0] && withinOneEdit(token.word, word);
}

function matchStaff(
  tokens: Token[],
  keys: Map<string, NameKey[]>,
  fuzzyKeys: NameKey[],
): StaffMember[] {
  const found = new Map<string, StaffMember>();
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    const candidates =
      keys.get(t.word) ??
      (t.capitalized && t.word.endsWith('s') ? keys.get(t.word.slice(0, -1)) : undefined) ??
      (t.capitalized ? fuzzyKeys : []);
    for (const key of candidates) {
      if (found.has(key.staff.id)) continue;
      if (key.needsCapital && !t.capitalized) continue;
      let ok = true;
      for (let k = 0; k < key.words.length; k++) {
        const tk = tokens[i + k];
        if (!tk || !tokenMatches(tk, key.words[k]!, true)) {
          ok = false;
          break;
        }
      }
      if (ok) found.set(key.staff.id, key.staff);
    }
  }
  return [...found.values()];
}

function phraseWordMatches(token: Token, word: string, last: boolean): boolean {
  if (token.raw === word || token.word === word) return true;
  return last && (token.raw === `${word}s` || token.raw === `${word}es`);
}

function matchServices(
  tokens: Token[],
  phrases: Map<string, Phrase[]>,
  order: Map<string, number>,
): string[] {
  const found = new Set<string>();
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    const candidates = phrases.get(t.raw) ?? phrases.get(t.word);
    const stem = t.raw.endsWith('es') ? phrases.get(t.raw.slice(0, -2)) : undefined;
    const stem1 = t.raw.endsWith('s') ? phrases.get(t.raw.slice(0, -1)) : undefined;
    for (const list of [candidates, stem, stem1]) {
      if (!list) continue;
      for (const p of list) {
        if (found.has(p.serviceId)) continue;
        let ok = true;
        for (let k = 0; k < p.words.length; k++) {
          const tk = tokens[i + k];
          if (!tk || !phraseWordMatches(tk, p.words[k]!, k === p.words.length - 1)) {
            ok = false;
            break;
          }
        }
        if (ok) found.add(p.serviceId);
      }
    }
  }
  return [...found].sort((a, b) => order.get(a)! - order.get(b)!);
}

function buildPhrases(services: readonly Service[]): Map<string, Phrase[]> {
  const phrases = new Map<string, Phrase[]>();
  for (const s of services) {
    for (const text of [s.name, ...s.synonyms]) {
      const words = nameWords(text);
      if (words.length === 0) continue;
      const list = phrases.get(words[0]!) ?? [];
      list.push({ serviceId: s.id, words });
      phrases.set(words[0]!, list);
    }
  }
  return phrases;
}

function normalizeName(name: string): string {
  return nameWords(name).join(' ');
}

/**
 * Compiles the roster and service catalogue of a business into a matcher. Staff are found by full
 * name, by a first name that is unique on the roster, by alias, with or without a possessive, in
 * any case (common-word names need a capital), and with one-letter misspellings of capitalised
 * names of five letters or more. Services are found by their name and synonyms as whole words,
 * plural forms included. Staff tagged by the source take precedence: a tagged person is reported
 * once, as tagged, and text matches add the others.
 */
export function compileMentionMatcher(
  business: Pick<Business, 'staff' | 'services'> | null,
): MentionMatcher {
  const staff = business?.staff ?? [];
  const services = business?.services ?? [];
  const keys = buildNameKeys(staff);
  const fuzzyKeys = [...keys.values()].flat().filter((k) => k.words[0]!.length >= MIN_FUZZY_LENGTH);
  const byFullName = new Map(staff.map((s) => [normalizeName(s.name), s]));
  const phrases = buildPhrases(services);
  const order = new Map(services.map((s, i) => [s.id, i]));

  return {
    match(text, tagged = []) {
      const joined = [text.name, text.reviewBody].filter((s): s is string => !!s).join('\n');
      const tokens = tokenize(joined);
      const technicians: TechnicianMention[] = [];
      const seen = new Set<string>();
      for (const t of tagged) {
        const member = byFullName.get(normalizeName(t.name));
        const name = member?.name ?? t.name.trim();
        const key = name.toLowerCase();
        if (seen.has(key)) continue;
        seen.add(key);
        technicians.push({ name, role: member?.role ?? null, via: t.via, rating: t.rating });
      }
      for (const member of matchStaff(tokens, keys, fuzzyKeys)) {
        const key = member.name.toLowerCase();
        if (seen.has(key)) continue;
        seen.add(key);
        technicians.push({ name: member.name, role: member.role, via: 'text-match', rating: null });
      }
      return { technicians, services: matchServices(tokens, phrases, order) };
    },
  };
}
