import type { Service } from '../../domain/business.js';
import { tokenize, type Token } from './tokens.js';

interface Phrase {
  serviceId: string;
  words: string[];
}

/** The service catalogue compiled for matching: phrases by first word, and catalogue order. */
export interface ServiceIndex {
  phrases: Map<string, Phrase[]>;
  order: Map<string, number>;
}

/** Compiles each service's name and synonyms into word phrases. */
export function buildServiceIndex(services: readonly Service[]): ServiceIndex {
  const phrases = new Map<string, Phrase[]>();
  for (const s of services) {
    for (const text of [s.name, ...s.synonyms]) {
      const words = tokenize(text).map((t) => t.raw);
      if (words.length === 0) continue;
      phrases.set(words[0]!, [...(phrases.get(words[0]!) ?? []), { serviceId: s.id, words }]);
    }
  }
  return { phrases, order: new Map(services.map((s, i) => [s.id, i])) };
}

function phraseWordMatches(token: Token, word: string, last: boolean): boolean {
  if (token.raw === word || token.word === word) return true;
  return last && (token.raw === `${word}s` || token.raw === `${word}es`);
}

function phraseAt(tokens: readonly Token[], i: number, p: Phrase): boolean {
  for (let k = 0; k < p.words.length; k++) {
    const tk = tokens[i + k];
    if (!tk || !phraseWordMatches(tk, p.words[k]!, k === p.words.length - 1)) return false;
  }
  return true;
}

/** The ids of the services named in the tokens (whole words, plurals too), in catalogue order. */
export function matchServices(tokens: readonly Token[], index: ServiceIndex): string[] {
  const found = new Set<string>();
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    const lists = [
      index.phrases.get(t.raw) ?? index.phrases.get(t.word),
      t.raw.endsWith('es') ? index.phrases.get(t.raw.slice(0, -2)) : undefined,
      t.raw.endsWith('s') ? index.phrases.get(t.raw.slice(0, -1)) : undefined,
    ];
    for (const list of lists) {
      for (const p of list ?? []) {
        if (!found.has(p.serviceId) && phraseAt(tokens, i, p)) found.add(p.serviceId);
      }
    }
  }
  return [...found].sort((a, b) => index.order.get(a)! - index.order.get(b)!);
}
