import { phraseMatcher } from './text-match.js';
import { dict, type ReadonlyDict } from '../../platform/dict.js';

/** Recurring themes of dealership reviews that the aspect taxonomy does not name. */
export const THEMES: { id: string; name: string; phrases: string[] }[] = [
  {
    id: 'loaner-car',
    name: 'Loaner cars',
    phrases: [
      'loaner',
      'loaner car',
      'loaner vehicle',
      'courtesy car',
      'rental car',
      'rental',
      'carro de cortesía',
      'carro prestado',
    ],
  },
  {
    id: 'shuttle',
    name: 'Shuttle service',
    phrases: ['shuttle', 'shuttle service', 'shuttle driver', 'ride home', 'ride back'],
  },
  { id: 'recall', name: 'Recalls', phrases: ['recall', 'recall work', 'retiro'] },
  {
    id: 'warranty',
    name: 'Warranty work',
    phrases: ['warranty', 'extended warranty', 'under warranty', 'garantía'],
  },
  { id: 'trade-in', name: 'Trade-ins', phrases: ['trade-in', 'trade in', 'traded in', 'my trade'] },
  { id: 'test-drive', name: 'Test drives', phrases: ['test drive', 'test drove', 'test-drive'] },
  {
    id: 'refreshments',
    name: 'Coffee and refreshments',
    phrases: ['coffee', 'snacks', 'popcorn', 'donuts', 'refreshments', 'water bottle', 'café'],
  },
  { id: 'wifi', name: 'Wi-Fi', phrases: ['wifi', 'wi-fi', 'internet'] },
  {
    id: 'parts-availability',
    name: 'Parts availability',
    phrases: [
      'backorder',
      'back order',
      'backordered',
      'on order',
      'waiting on parts',
      'waiting for parts',
      'part was not in stock',
      'parts in stock',
    ],
  },
  {
    id: 'check-engine-light',
    name: 'Check-engine light',
    phrases: ['check engine light', 'check engine', 'engine light'],
  },
  {
    id: 'paperwork',
    name: 'Paperwork',
    phrases: ['paperwork', 'documents', 'title', 'registration', 'papeleo'],
  },
  {
    id: 'online-booking',
    name: 'Online booking',
    phrases: [
      'online booking',
      'booked online',
      'online scheduling',
      'scheduled online',
      'app',
      'text updates',
      'text message',
    ],
  },
];

/** The theme phrases compiled once, in THEMES order (at most 31 themes: one bit each). */
export const THEME_PATTERNS: readonly RegExp[] = THEMES.map((t) => phraseMatcher(t.phrases));

const AREA_WORDS: [string, RegExp][] = [
  ['body-shop', phraseMatcher(['body shop', 'collision', 'bodywork', 'dent', 'paint job'])],
  [
    'finance',
    phraseMatcher(['finance', 'financing', 'loan', 'interest rate', 'credit', 'f&i', 'paperwork']),
  ],
  ['parts', phraseMatcher(['parts department', 'parts counter', 'ordered a part', 'parts desk'])],
  [
    'sales',
    phraseMatcher([
      'salesman',
      'saleswoman',
      'sales rep',
      'salesperson',
      'bought',
      'purchased',
      'test drive',
      'trade-in',
      'new car',
      'used car',
    ]),
  ],
  [
    'service',
    phraseMatcher([
      'service',
      'repair',
      'oil change',
      'technician',
      'mechanic',
      'service advisor',
      'maintenance',
    ]),
  ],
];

/** The service area a text speaks of, from its words (body shop, finance, parts, sales, service). */
export function textArea(text: string): string | null {
  for (const [area, re] of AREA_WORDS) if (re.test(text)) return area;
  return null;
}

/** Phrase sets the FAQ asks about within an aspect's sentences, one bit each. */
export const FLAG_QUOTE = 1;
export const FLAG_PRESSURE = 2;
const FLAG_PATTERNS: [number, RegExp][] = [
  [
    FLAG_QUOTE,
    phraseMatcher([
      'quote',
      'quoted',
      'estimate',
      'estimated',
      'price they gave',
      'upsell',
      'upsold',
      'hidden fee',
      'fees',
      'cotización',
    ]),
  ],
  [
    FLAG_PRESSURE,
    phraseMatcher([
      'pressure',
      'pressured',
      'pushy',
      'no pressure',
      'pressure-free',
      'hassle',
      'hassle-free',
      'haggle',
    ]),
  ],
];

/** The FAQ flags of a sentence. */
export function sentenceFlags(text: string): number {
  let flags = 0;
  for (const [bit, re] of FLAG_PATTERNS) if (re.test(text)) flags |= bit;
  return flags;
}

const WORDS: ReadonlyDict<number> = dict({
  a: 1,
  an: 1,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
});
const DURATION_RE =
  /\b(\d+(?:\.\d+)?|an?|one|two|three|four|five|six|half an?)\s*(hours?|hrs?|minutes?|mins?)\b/giu;

/** Durations a sentence states ("2 hours", "45 minutes", "an hour"), in minutes. */
export function statedMinutes(text: string): number[] {
  const out: number[] = [];
  for (const m of text.matchAll(DURATION_RE)) {
    const raw = m[1]!.toLowerCase();
    const n = raw.startsWith('half') ? 0.5 : (WORDS[raw] ?? Number(raw));
    const minutes = m[2]!.toLowerCase().startsWith('h') ? n * 60 : n;
    if (minutes > 0 && minutes <= 24 * 60) out.push(minutes);
  }
  return out;
}
