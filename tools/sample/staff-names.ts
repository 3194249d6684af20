import type { Rng } from './prng.js';
import type { RosterEntry } from './roster.js';

/** How a customer writes a staff member's name the first time, and every time after. */
export interface NameStyle {
  first: string;
  later: string;
}

type Form = 'full' | 'first' | 'alias' | 'lower' | 'misspelled' | 'title';

function splitName(name: string): [string, string] {
  const i = name.indexOf(' ');
  return i < 0 ? [name, ''] : [name.slice(0, i), name.slice(i + 1)];
}

function misspell(rng: Rng, e: RosterEntry): NameStyle {
  const [first, last] = splitName(e.name);
  const wrong = rng.pick(e.misspellings);
  const ofFirst =
    wrong[0] === first[0] && Math.abs(wrong.length - first.length) <= 1 && wrong !== last;
  if (ofFirst) return { first: rng.chance(0.3) ? `${wrong} ${last}` : wrong, later: wrong };
  return { first: `${first} ${wrong}`, later: first };
}

/**
 * Chooses how one review writes one person's name: full name, first name, nickname, all lower
 * case, a one-letter misspelling, or "Mr. Torres" style. Later mentions in the same review reuse
 * the short form (and the same misspelling), as a real writer would.
 */
export function chooseNameStyle(rng: Rng, e: RosterEntry): NameStyle {
  const [first, last] = splitName(e.name);
  if (e.slot === 'driver' && rng.chance(0.45))
    return { first: `Mr. ${first}`, later: `Mr. ${first}` };
  const form = rng.weighted<Form>([
    ['full', 22],
    ['first', 50],
    ['alias', e.aliases.length > 0 ? 14 : 0],
    ['lower', 6],
    ['misspelled', e.misspellings.length > 0 ? 7 : 0],
    ['title', 3],
  ]);
  switch (form) {
    case 'full':
      return { first: e.name, later: first };
    case 'alias': {
      const alias = rng.pick(e.aliases);
      return { first: alias, later: alias };
    }
    case 'lower':
      return rng.chance(0.3)
        ? { first: e.name.toLowerCase(), later: first.toLowerCase() }
        : { first: first.toLowerCase(), later: first.toLowerCase() };
    case 'misspelled':
      return misspell(rng, e);
    case 'title': {
      const t = `${e.pronoun === 'he' ? 'Mr.' : 'Ms.'} ${last}`;
      return { first: t, later: t };
    }
    default:
      return { first, later: first };
  }
}

const PRONOUNS: Readonly<Record<string, readonly [string, string]>> = {
  he: ['he', 'she'],
  him: ['him', 'her'],
  his: ['his', 'her'],
  himself: ['himself', 'herself'],
  o: ['o', 'a'],
  el: ['él', 'ella'],
};

/** A pronoun or gendered ending for a person (`he`, `His`, Spanish `o`), keeping the capital. */
export function pronounFor(e: RosterEntry, form: string): string {
  const pair = PRONOUNS[form.toLowerCase()];
  if (!pair) throw new Error(`unknown pronoun form :${form}`);
  const word = e.pronoun === 'he' ? pair[0] : pair[1];
  return form[0] === form[0]!.toUpperCase() ? word[0]!.toUpperCase() + word.slice(1) : word;
}
