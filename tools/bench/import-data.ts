/**
 * Generates large, realistic-looking import files for the import benchmark and the kill test:
 * Google Business Profile `reviews.json` pages and reputation-tool CSV, from a seeded PRNG, so
 * the same seed gives the same bytes. The sample generator on main makes the service's sample
 * data; this one only feeds the importer.
 */

import { seededRandom } from '../../src/domain/random.js';

/** A small seeded PRNG (mulberry32). */
export const createRandom = seededRandom;

const STAFF = ['Mike Torres', 'Carlos Mendoza', 'Jessica Nguyen', 'Brandon Hale', 'Frank Ortiz'];
const SERVICES = ['oil change', 'brake job', 'tire rotation', 'battery', 'alignment', 'A/C repair'];
const OPENERS = [
  'Brought my truck in for a {service}.',
  'Came in for a {service} on a Saturday morning.',
  'Bought a used Equinox here last month.',
  'Second time here for a {service}.',
  'Had an appointment for a {service} and a recall.',
];
const MIDDLES = [
  '{first} was friendly and kept me posted.',
  "{first}'s team had it done in under an hour.",
  '{full} explained everything before doing any work.',
  'The waiting room was clean and the coffee was fresh.',
  'It took longer than quoted, but the price was fair.',
  'Nobody called me back about the estimate.',
  '{first} went above and beyond to get the deal done.',
];
const CLOSERS = ['Will be back.', 'Recommended.', 'Not great, not terrible.', 'Thanks!', ''];
const SPANISH = [
  'Muy buen servicio, {first} me explicó todo sobre los frenos.',
  'Excelente atención, el cambio de aceite fue rápido.',
];
const NAMES = ['Rebecca L.', 'Juan P.', 'T. Okafor', 'Pat G', 'Marisol V.', 'Greg H.', 'Sam K.'];
const WORDS = ['ONE', 'TWO', 'THREE', 'FOUR', 'FIVE'] as const;

function pickOf<T>(rnd: () => number, items: readonly T[]): T {
  return items[Math.floor(rnd() * items.length)]!;
}

function fill(rnd: () => number, template: string): string {
  const full = pickOf(rnd, STAFF);
  return template
    .replaceAll('{service}', pickOf(rnd, SERVICES))
    .replaceAll('{full}', full)
    .replaceAll('{first}', full.split(' ')[0]!);
}

function rating(rnd: () => number): number {
  const x = rnd();
  return x < 0.62 ? 5 : x < 0.8 ? 4 : x < 0.88 ? 3 : x < 0.93 ? 2 : 1;
}

/** One generated review, in neutral terms. */
export interface GeneratedReview {
  id: string;
  rating: number;
  author: string;
  text: string | null;
  created: string;
  reply: string | null;
}

function body(rnd: () => number): string | null {
  const x = rnd();
  if (x < 0.15) return null;
  if (x < 0.2) return fill(rnd, pickOf(rnd, SPANISH));
  const parts = [fill(rnd, pickOf(rnd, OPENERS))];
  const extra = 1 + Math.floor(rnd() * 3);
  for (let i = 0; i < extra; i++) parts.push(fill(rnd, pickOf(rnd, MIDDLES)));
  parts.push(pickOf(rnd, CLOSERS));
  return parts.join(' ').trim();
}

/** `count` reviews from `seed`, one per ~40 minutes going back from 2025-01-01. */
export function* generateReviews(count: number, seed = 1): Generator<GeneratedReview> {
  const rnd = createRandom(seed);
  const start = Date.UTC(2025, 0, 1);
  for (let i = 0; i < count; i++) {
    const created = new Date(start - i * 2_400_000 - Math.floor(rnd() * 600_000)).toISOString();
    yield {
      id: `gen-${seed}-${i}`,
      rating: rating(rnd),
      author: pickOf(rnd, NAMES),
      text: body(rnd),
      created,
      reply: rnd() < 0.3 ? 'Thank you for the feedback!' : null,
    };
  }
}

function gbpItem(r: GeneratedReview): Record<string, unknown> {
  return {
    name: `accounts/1/locations/2/reviews/${r.id}`,
    reviewId: r.id,
    reviewer: { displayName: r.author },
    starRating: WORDS[r.rating - 1],
    ...(r.text === null ? {} : { comment: r.text }),
    createTime: r.created,
    updateTime: r.created,
    ...(r.reply === null ? {} : { reviewReply: { comment: r.reply, updateTime: r.created } }),
  };
}

/**
 * How a JSON file is laid out: one review per line (as Takeout writes it), everything on one line
 * (another deployment's `/reviews.json`), or pretty-printed (a review over many lines).
 */
export type JsonLayout = 'lines' | 'single-line' | 'pretty';

/** A Google `reviews.json` of `count` reviews, written in chunks in the given layout. */
export function* gbpChunks(
  count: number,
  seed = 1,
  layout: JsonLayout = 'lines',
): Generator<string> {
  const nl = layout === 'single-line' ? '' : '\n';
  yield `{${nl}  "reviews": [${nl}`;
  let first = true;
  for (const r of generateReviews(count, seed)) {
    const item =
      layout === 'pretty'
        ? JSON.stringify(gbpItem(r), null, 2).replaceAll('\n', '\n    ')
        : JSON.stringify(gbpItem(r));
    yield `${first ? '' : `,${nl}`}    ${item}`;
    first = false;
  }
  yield `${nl}  ]${nl}}${nl}`;
}

function csvCell(value: string | null): string {
  if (value === null) return '';
  return /[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

/** A reputation-tool CSV of `count` reviews, written in chunks (CRLF, like spreadsheet exports). */
export function* csvChunks(count: number, seed = 1): Generator<string> {
  yield 'Review ID,Source,Rating,Reviewer,Review Date,Review Text,Response\r\n';
  for (const r of generateReviews(count, seed)) {
    const cells = [r.id, 'Google', String(r.rating), r.author, r.created, r.text, r.reply];
    yield `${cells.map(csvCell).join(',')}\r\n`;
  }
}
