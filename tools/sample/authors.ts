import type { Rng } from './prng.js';
import { STORE } from './dealership.js';
import { FIRST_NAMES, HANDLES, HISPANIC_FIRST, HISPANIC_LAST, LAST_NAMES } from './text/people.js';

/** A reviewer as the source displays them, and the first name a reply would greet. */
export interface Author {
  name: string;
  /** First name to greet in a reply, or `null` for handles and anonymous users. */
  first: string | null;
  anonymous: boolean;
}

function person(rng: Rng, hispanic: boolean): [string, string] {
  return hispanic
    ? [rng.pick(HISPANIC_FIRST), rng.pick(HISPANIC_LAST)]
    : [rng.pick(FIRST_NAMES), rng.pick(LAST_NAMES)];
}

/**
 * A Google display name: mostly "First Last", sometimes an initial, a single name, all lower
 * case, a middle initial, a family account, or the anonymous "A Google user" of older reviews.
 */
export function googleAuthor(rng: Rng, hispanic: boolean, day: number): Author {
  const [first, last] = person(rng, hispanic);
  const form = rng.weighted<string>([
    ['full', 58],
    ['initial', 10],
    ['single', 8],
    ['lower', 6],
    ['middle', 5],
    ['two-last', hispanic ? 8 : 1],
    ['family', 1],
    ['anon', day < 19_900 ? 2.5 : 0.8],
  ]);
  switch (form) {
    case 'initial':
      return { name: `${first} ${last[0]}.`, first, anonymous: false };
    case 'single':
      return { name: first, first, anonymous: false };
    case 'lower':
      return { name: `${first} ${last}`.toLowerCase(), first, anonymous: false };
    case 'middle':
      return {
        name: `${first} ${String.fromCharCode(65 + rng.int(0, 25))}. ${last}`,
        first,
        anonymous: false,
      };
    case 'two-last':
      return {
        name: `${first} ${last} ${rng.pick(hispanic ? HISPANIC_LAST : LAST_NAMES)}`,
        first,
        anonymous: false,
      };
    case 'family':
      return { name: `The ${last} Family`, first: null, anonymous: false };
    case 'anon':
      return { name: 'A Google user', first: null, anonymous: true };
    default:
      return { name: `${first} ${last}`, first, anonymous: false };
  }
}

/** A DealerRater user name: "First L", a first name, a handle with digits, or "Sarah from Cary". */
export function dealerRaterAuthor(rng: Rng, hispanic: boolean): Author {
  const [first, last] = person(rng, hispanic);
  const form = rng.weighted<string>([
    ['first-l', 35],
    ['first', 15],
    ['handle', 18],
    ['full', 15],
    ['joined', 6],
    ['from', 11],
  ]);
  switch (form) {
    case 'first':
      return { name: first, first, anonymous: false };
    case 'handle':
      return { name: `${rng.pick(HANDLES)}${rng.int(1, 99)}`, first: null, anonymous: false };
    case 'full':
      return { name: `${first} ${last}`, first, anonymous: false };
    case 'joined':
      return {
        name: `${first}${last}`.toLowerCase().normalize('NFD').replace(/\p{M}/gu, ''),
        first: null,
        anonymous: false,
      };
    case 'from':
      return { name: `${first} from ${rng.pick(STORE.nearby)}`, first, anonymous: false };
    default:
      return { name: `${first} ${last[0]}`, first, anonymous: false };
  }
}
