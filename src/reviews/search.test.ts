import { describe, expect, it } from 'vitest';
import { testBusiness } from '../../test/helpers/fixtures.js';
import { reviewRecord, type ReviewSpec } from '../../test/helpers/records.js';
import { Business } from '../domain/business.js';
import { seededRandom } from '../domain/random.js';
import type { Review } from '../domain/review.js';
import { AspectIndex, AspectIndexBuilder } from './aspect-index.js';
import { buildSearchIndex } from './search-index.js';
import { SearchFilters } from './search-schema.js';
import {
  firstBefore,
  positionAfterKey,
  runSearch,
  type SearchHits,
  type SortKey,
} from './search.js';

const business = Business.parse(testBusiness());

/** Published order written out plainly: date, then datePublished, then id, all newest first. */
function naiveOrder(reviews: readonly Review[]): Review[] {
  const desc = (x: string, y: string): number => (x < y ? 1 : x > y ? -1 : 0);
  return [...reviews].sort(
    (a, b) => desc(a.date, b.date) || desc(a.datePublished, b.datePublished) || desc(a.id, b.id),
  );
}

const keyOf = (r: Review): SortKey => [r.date, r.datePublished, r.id];

/** Keys in published order: later sort keys first. */
function comesAfter(key: SortKey, after: SortKey): boolean {
  for (let i = 0; i < 3; i++) {
    if (key[i]! < after[i]!) return true;
    if (key[i]! > after[i]!) return false;
  }
  return false;
}

// Positions are given by hand: b and a share a date (b published later), h and c share a date (h
// published later, on the next UTC day), f and e share date and time (ids decide: f's is higher).
const SPECS: ReviewSpec[] = [
  {
    key: 'a',
    date: '2025-03-10',
    rating: 5,
    title: 'Great brake job',
    body: 'Mike Torres replaced the brake pads. Drives like new!',
    technicians: ['Mike Torres'],
    services: ['brakes'],
  },
  {
    key: 'b',
    date: '2025-03-10',
    datePublished: '2025-03-10T20:00:00.000Z',
    rating: 2,
    title: null,
    body: 'Waited three hours for a simple oil change.',
    services: ['oil-change'],
  },
  {
    key: 'c',
    date: '2025-03-09',
    rating: 4,
    title: 'Oil and filter',
    body: "Sarah's work was quick and friendly.",
    technicians: ['Sarah Lopez'],
    services: ['oil-change'],
  },
  {
    key: 'd',
    date: '2025-02-28',
    datePublished: '2025-02-28T08:00:00.000Z',
    rating: 1,
    title: 'Never again',
    body: 'Prices were higher than the quote... Mike Chen explained, though.',
    technicians: ['Mike Chen'],
  },
  { key: 'e', date: '2025-02-28', rating: 3, title: null, body: null },
  {
    key: 'f',
    date: '2025-02-28',
    rating: 5,
    title: 'Excelente servicio',
    body: 'Muy rápido. ¡Gracias!',
  },
  {
    key: 'g',
    date: '2025-01-15',
    rating: 5,
    title: 'Great',
    body: 'Service with no pressure at all. Dave Kim sold me my truck.',
    technicians: ['Dave Kim'],
  },
  {
    key: 'h',
    date: '2025-03-09',
    datePublished: '2025-03-10T04:30:00.000Z',
    rating: 4,
    title: 'BRAKES squeal',
    body: 'Rotors resurfaced, 2 hrs.',
    technicians: ['Sarah Lopez', 'Mike Torres'],
    services: ['brakes'],
  },
];
const ORDER = ['b', 'a', 'h', 'c', 'f', 'e', 'd', 'g'];

const ordered = naiveOrder(SPECS.map(reviewRecord));
const index = buildSearchIndex(ordered, business);

function search(filters: Record<string, unknown>, after?: SortKey): SearchHits {
  const outcome = runSearch(index, SearchFilters.parse(filters), after);
  if (!outcome.ok) throw new Error(JSON.stringify(outcome.issues));
  return outcome.hits;
}

/** The source keys of every match (limit 100). */
const keys = (filters: Record<string, unknown>, after?: SortKey): string[] =>
  search({ limit: 100, ...filters }, after).positions.map((p) => ordered[p]!.sourceReviewId);

describe('published order and the index', () => {
  it('orders by date, then datePublished, then id, newest first', () => {
    expect(ordered.map((r) => r.sourceReviewId)).toEqual(ORDER);
    expect(index.size).toBe(8);
    expect(ordered.map((_, pos) => index.date(pos))).toEqual(ordered.map((r) => r.date));
    expect(keys({})).toEqual(ORDER);
  });

  it('finds the first position dated before a day (the count dated on or after it)', () => {
    expect(firstBefore(index, '2025-03-10')).toBe(2);
    expect(firstBefore(index, '2025-03-09')).toBe(4);
    expect(firstBefore(index, '2025-03-01')).toBe(4);
    expect(firstBefore(index, '2099-01-01')).toBe(0);
    expect(firstBefore(index, '2000-01-01')).toBe(8);
    expect(firstBefore(buildSearchIndex([], null), '2025-01-01')).toBe(0);
  });

  it('finds where a cursor key resumes, exclusive or inclusive of the key itself', () => {
    for (let pos = 0; pos < ordered.length; pos++) {
      expect(positionAfterKey(index, keyOf(ordered[pos]!))).toBe(pos + 1);
      expect(positionAfterKey(index, keyOf(ordered[pos]!), true)).toBe(pos);
    }
    // A key between c (2025-03-09 noon) and f (2025-02-28): a review that is gone.
    expect(positionAfterKey(index, ['2025-03-01', '2025-03-01T12:00:00.000Z', 'x'])).toBe(4);
    expect(positionAfterKey(index, ['2099-01-01', '2099-01-01T00:00:00.000Z', ''])).toBe(0);
    expect(positionAfterKey(index, ['1999-01-01', '1999-01-01T00:00:00.000Z', ''])).toBe(8);
  });
});

describe('each filter alone', () => {
  it('rating: exactly that many stars', () => {
    expect(keys({ rating: 5 })).toEqual(['a', 'f', 'g']);
    expect(keys({ rating: 4 })).toEqual(['h', 'c']);
    expect(keys({ rating: 3 })).toEqual(['e']);
  });

  it('min_rating: at least that many stars, fractional allowed', () => {
    expect(keys({ min_rating: 4 })).toEqual(['a', 'h', 'c', 'f', 'g']);
    expect(keys({ min_rating: 3.5 })).toEqual(['a', 'h', 'c', 'f', 'g']);
    expect(keys({ min_rating: 1 })).toEqual(ORDER);
    expect(keys({ min_rating: 2.01 })).toEqual(['a', 'h', 'c', 'f', 'e', 'g']);
  });

  it('max_rating: at most that many stars, fractional allowed, with min_rating a range', () => {
    expect(keys({ max_rating: 2 })).toEqual(['b', 'd']);
    expect(keys({ max_rating: 2.5 })).toEqual(['b', 'd']);
    expect(keys({ max_rating: 5 })).toEqual(ORDER);
    expect(keys({ min_rating: 3, max_rating: 4 })).toEqual(['h', 'c', 'e']);
    expect(keys({ min_rating: 4, max_rating: 4 })).toEqual(keys({ rating: 4 }));
    // The same through the text index's path (a query), not only the star lists.
    expect(keys({ query: 'e', max_rating: 2 })).toEqual(['b', 'd']);
  });

  it('since and until: local dates, both ends included', () => {
    expect(keys({ since: '2025-03-09' })).toEqual(['b', 'a', 'h', 'c']);
    expect(keys({ until: '2025-02-28' })).toEqual(['f', 'e', 'd', 'g']);
    expect(keys({ since: '2025-02-28', until: '2025-02-28' })).toEqual(['f', 'e', 'd']);
    expect(keys({ since: '2025-03-01', until: '2025-03-08' })).toEqual([]);
    // h was published on 2025-03-10 UTC but its local date is 2025-03-09: the date decides.
    expect(keys({ until: '2025-03-09' })).toEqual(['h', 'c', 'f', 'e', 'd', 'g']);
  });

  it('mentions_service: a catalogue id, case-insensitively', () => {
    expect(keys({ mentions_service: 'oil-change' })).toEqual(['b', 'c']);
    expect(keys({ mentions_service: 'OIL-Change' })).toEqual(['b', 'c']);
    expect(keys({ mentions_service: 'brakes' })).toEqual(['a', 'h']);
    expect(keys({ mentions_service: 'tire-rotation' })).toEqual([]);
    expect(keys({ mentions_service: 'unknown' })).toEqual([]);
  });
});

describe('query', () => {
  it('is a case-insensitive substring of the title or the text', () => {
    expect(keys({ query: 'brake' })).toEqual(['a', 'h']);
    expect(keys({ query: 'BRAKE' })).toEqual(['a', 'h']);
    expect(keys({ query: 'rake' })).toEqual(['a', 'h']);
    expect(keys({ query: 'great' })).toEqual(['a', 'g']); // titles
    expect(keys({ query: 'quote' })).toEqual(['d']); // text
    expect(keys({ query: 'RÁPIDO' })).toEqual(['f']);
    expect(keys({ query: 'nothing like this' })).toEqual([]);
  });

  it('matches several words only as written, across word parts, never across title and text', () => {
    expect(keys({ query: 'oil and' })).toEqual(['c']);
    expect(keys({ query: 'RAKE PA' })).toEqual(['a']);
    expect(keys({ query: 'like new' })).toEqual(['a']);
    expect(keys({ query: 'new like' })).toEqual([]);
    expect(keys({ query: 'quick  and' })).toEqual([]); // two spaces: not in any text
    // Title "Great brake job", text "Mike Torres...": the two are not one string.
    expect(keys({ query: 'job mike' })).toEqual([]);
    expect(keys({ query: 'job' })).toEqual(['a']);
  });

  it('matches queries shorter than three characters', () => {
    expect(keys({ query: 'q' })).toEqual(['h', 'c', 'd']);
    expect(keys({ query: 'Mu' })).toEqual(['f']);
    expect(keys({ query: '2 ' })).toEqual(['h']);
    expect(keys({ query: 'zz' })).toEqual([]);
  });

  it('matches punctuation-only and mixed queries as plain substrings', () => {
    expect(keys({ query: '!' })).toEqual(['a', 'f']);
    expect(keys({ query: '...' })).toEqual(['d']);
    expect(keys({ query: "'" })).toEqual(['c']);
    expect(keys({ query: ', ' })).toEqual(['h', 'd']);
    expect(keys({ query: '¡' })).toEqual(['f']);
    expect(keys({ query: "SARAH'S" })).toEqual(['c']);
    expect(keys({ query: 'new!' })).toEqual(['a']);
    expect(keys({ query: '?' })).toEqual([]);
  });
});

describe('mentions_technician', () => {
  it('matches a full name in any case and spacing', () => {
    for (const name of ['Sarah Lopez', 'sarah lopez', '  SARAH   LOPEZ ']) {
      expect(keys({ mentions_technician: name }), name).toEqual(['h', 'c']);
    }
    expect(keys({ mentions_technician: 'Mike Torres' })).toEqual(['a', 'h']);
    expect(keys({ mentions_technician: 'Mike Chen' })).toEqual(['d']);
  });

  it('matches a first name unique on the roster', () => {
    expect(keys({ mentions_technician: 'sarah' })).toEqual(['h', 'c']);
    expect(keys({ mentions_technician: 'Dave' })).toEqual(['g']);
  });

  it('refuses a first name several staff members share, naming them', () => {
    const outcome = runSearch(index, SearchFilters.parse({ mentions_technician: 'MIKE' }));
    expect(outcome).toEqual({
      ok: false,
      issues: [
        {
          path: ['mentions_technician'],
          code: 'ambiguous',
          message: expect.stringContaining('(Mike Chen, Mike Torres)'),
        },
      ],
    });
  });

  it('gives nothing for a name nobody has, or a roster member nobody mentions', () => {
    expect(search({ mentions_technician: 'Nobody Here' })).toEqual({
      total: 0,
      positions: [],
      more: false,
    });
    expect(keys({ mentions_technician: 'Torres' })).toEqual([]); // a last name is no key
    const quiet = buildSearchIndex(
      ordered,
      Business.parse({
        ...testBusiness(),
        staff: [{ id: 'quiet-one', name: 'Quiet One', role: 'technician' }],
      }),
    );
    const outcome = runSearch(quiet, SearchFilters.parse({ mentions_technician: 'Quiet' }));
    expect(outcome).toEqual({ ok: true, hits: { total: 0, positions: [], more: false } });
  });
});

describe('combined filters, total, limit and cursors', () => {
  it('ANDs every filter', () => {
    expect(keys({ min_rating: 4, query: 'brake' })).toEqual(['a', 'h']);
    expect(keys({ rating: 4, mentions_technician: 'Mike Torres' })).toEqual(['h']);
    expect(keys({ mentions_technician: 'sarah', mentions_service: 'oil-change' })).toEqual(['c']);
    expect(keys({ since: '2025-03-10', mentions_service: 'brakes', query: 'pads' })).toEqual(['a']);
    expect(keys({ rating: 3, min_rating: 4 })).toEqual([]);
    expect(
      keys({
        rating: 4,
        min_rating: 4,
        since: '2025-03-09',
        until: '2025-03-09',
        query: 'r',
        mentions_technician: 'Sarah Lopez',
        mentions_service: 'brakes',
      }),
    ).toEqual(['h']);
  });

  it('counts every match in total, returns at most limit, and says when more follow', () => {
    expect(search({ limit: 3 })).toEqual({ total: 8, positions: [0, 1, 2], more: true });
    expect(search({ limit: 8 })).toEqual({
      total: 8,
      positions: [0, 1, 2, 3, 4, 5, 6, 7],
      more: false,
    });
    expect(search({ limit: 1, query: 'brake' })).toEqual({ total: 2, positions: [1], more: true });
    expect(search({ limit: 2, query: 'brake' })).toEqual({
      total: 2,
      positions: [1, 2],
      more: false,
    });
    expect(search({ limit: 2, min_rating: 4, since: '2025-03-09' })).toEqual({
      total: 3,
      positions: [1, 2],
      more: true,
    });
  });

  it('resumes after a cursor key, with total still counting every match', () => {
    const first = search({ limit: 3, min_rating: 3 });
    expect(first.positions.map((p) => ordered[p]!.sourceReviewId)).toEqual(['a', 'h', 'c']);
    const last = keyOf(ordered[first.positions.at(-1)!]!);
    const second = search({ limit: 3, min_rating: 3 }, last);
    expect(second.total).toBe(6);
    expect(second.positions.map((p) => ordered[p]!.sourceReviewId)).toEqual(['f', 'e', 'g']);
    expect(second.more).toBe(false);
    const byText = search({ limit: 1, query: 'r' }, keyOf(ordered[2]!));
    expect(byText.positions.map((p) => ordered[p]!.sourceReviewId)).toEqual(['c']);
    expect(byText.more).toBe(true);
  });

  it('resumes after the key of a review that is gone', () => {
    // The cursor was handed out for review c, which was deleted since.
    const c = ordered.find((r) => r.sourceReviewId === 'c')!;
    const without = ordered.filter((r) => r !== c);
    const smaller = buildSearchIndex(without, business);
    const page = runSearch(smaller, SearchFilters.parse({ limit: 2 }), keyOf(c));
    const ids = (p: number[]) => p.map((pos) => without[pos]!.sourceReviewId);
    expect(page.ok && ids(page.hits.positions)).toEqual(['f', 'e']);
    const text = runSearch(smaller, SearchFilters.parse({ query: 'e', limit: 2 }), keyOf(c));
    expect(text.ok && ids(text.hits.positions)).toEqual(['f', 'd']);
    expect(text.ok && text.hits.more).toBe(true);
  });

  it('returns an empty page past the last match', () => {
    expect(search({ query: 'brake' }, keyOf(ordered.at(-1)!))).toEqual({
      total: 2,
      positions: [],
      more: false,
    });
    expect(search({ min_rating: 4 }, keyOf(ordered.at(-1)!))).toEqual({
      total: 5,
      positions: [],
      more: false,
    });
  });

  it('answers every filter on an empty index', () => {
    const empty = buildSearchIndex([], null);
    for (const f of [{}, { rating: 5 }, { query: 'x' }, { mentions_service: 'brakes' }]) {
      expect(runSearch(empty, SearchFilters.parse(f))).toEqual({
        ok: true,
        hits: { total: 0, positions: [], more: false },
      });
    }
  });
});

// A property check: many random filter combinations over a random review set, each answered by
// runSearch and by a naive filter written here; the rating-and-date-only fast path is also
// checked against the general path, forced by a query every review matches.
describe('runSearch against a naive filter', () => {
  const random = seededRandom(20_251_125);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const WORDS = [
    'brake',
    'Brakes',
    'oil',
    'change',
    'quick',
    'friendly',
    'rude',
    'waited',
    'price',
    'quote',
    'rápido',
    'Service',
    'tires',
    'rotation',
    "Sarah's",
    'Mike',
    'great!',
    'bad...',
    'ok,',
    'A',
    'x',
  ];
  const STAFF = ['Mike Torres', 'Mike Chen', 'Sarah Lopez', 'Dave Kim', 'Pat Guest'];
  const SERVICES = ['oil-change', 'brakes', 'tire-rotation'];
  const DATES = [
    '2025-01-01',
    '2025-01-02',
    '2025-01-05',
    '2025-02-01',
    '2025-02-02',
    '2025-03-01',
  ];
  const TIMES = ['T06:00:00.000Z', 'T12:00:00.000Z', 'T18:00:00.000Z'];
  const text = (n: number): string =>
    Array.from({ length: n }, () => pick(WORDS)).join(pick([' ', ' ', '  ', ', ']));
  const some = <T>(items: readonly T[]): T[] => items.filter(() => random() < 0.25);

  // 70 reviews: 60 are indexed, 10 are "gone" and only lend their keys to cursors. Every review
  // holds the marker word "xq" (title or text) so that a query for it matches everything.
  const all = Array.from({ length: 70 }, (_, i) => {
    const date = pick(DATES);
    const hasTitle = random() < 0.6;
    return reviewRecord({
      key: `k${i}`,
      date,
      datePublished: `${date}${pick(TIMES)}`,
      rating: 1 + Math.floor(random() * 5),
      title: hasTitle ? `${text(2)} xq` : null,
      body: hasTitle && random() < 0.2 ? null : `${text(1 + Math.floor(random() * 8))} xq.`,
      technicians: some(STAFF),
      services: some(SERVICES),
    });
  });
  const gone = all.slice(60);
  const reviews = naiveOrder(all.slice(0, 60));
  const idx = buildSearchIndex(reviews, business);

  const FULL_NAMES = [...new Set([...business.staff.map((s) => s.name), ...STAFF])];
  function naiveStaff(name: string): { names: string[] } | { ambiguous: string[] } {
    const key = name.trim().toLowerCase().replace(/\s+/g, ' ');
    const full = FULL_NAMES.filter((n) => n.toLowerCase() === key);
    if (full.length > 0) return { names: full };
    const byFirst = FULL_NAMES.filter((n) => n.toLowerCase().split(' ')[0] === key);
    return byFirst.length > 1 ? { ambiguous: byFirst.sort() } : { names: byFirst };
  }

  function naive(f: SearchFilters, after?: SortKey): SearchHits | { ambiguous: string[] } {
    const staff = f.mentions_technician === undefined ? null : naiveStaff(f.mentions_technician);
    if (staff && 'ambiguous' in staff) return staff;
    const matches: number[] = [];
    reviews.forEach((r, pos) => {
      const rating = r.reviewRating.ratingValue;
      if (f.rating !== undefined && rating !== f.rating) return;
      if (f.min_rating !== undefined && rating < f.min_rating) return;
      if (f.since !== undefined && r.date < f.since) return;
      if (f.until !== undefined && r.date > f.until) return;
      if (f.query !== undefined) {
        const q = f.query.toLowerCase();
        const inTitle = (r.name ?? '').toLowerCase().includes(q);
        if (!inTitle && !(r.reviewBody ?? '').toLowerCase().includes(q)) return;
      }
      if (staff && !r.mentions.technicians.some((t) => staff.names.includes(t.name))) return;
      if (
        f.mentions_service !== undefined &&
        !r.mentions.services.includes(f.mentions_service.toLowerCase())
      )
        return;
      matches.push(pos);
    });
    const rest = after ? matches.filter((pos) => comesAfter(keyOf(reviews[pos]!), after)) : matches;
    return {
      total: matches.length,
      positions: rest.slice(0, f.limit),
      more: rest.length > f.limit,
    };
  }

  const QUERIES = [
    ...WORDS,
    'BRAKE',
    'rak',
    'ke b',
    'oil change',
    'oil  change',
    'e',
    'ra',
    '!',
    '...',
    ', ',
    "'s",
    'ÁPI',
    'quick friendly',
    'xq',
    'nope',
  ];

  function randomFilters(): Record<string, unknown> {
    const f: Record<string, unknown> = { limit: 1 + Math.floor(random() * 12) };
    if (random() < 0.3) f.rating = 1 + Math.floor(random() * 5);
    if (random() < 0.3) f.min_rating = pick([1, 2, 2.5, 3, 4, 4.5, 5]);
    const d1 = random() < 0.35 ? pick(DATES) : undefined;
    const d2 = random() < 0.35 ? pick(DATES) : undefined;
    if (d1 !== undefined && d2 !== undefined) {
      f.since = d1 < d2 ? d1 : d2;
      f.until = d1 < d2 ? d2 : d1;
    } else if (d1 !== undefined) f.since = d1;
    else if (d2 !== undefined) f.until = d2;
    if (random() < 0.35) f.query = pick(QUERIES);
    if (random() < 0.2)
      f.mentions_technician = pick(['Sarah Lopez', 'sarah', 'DAVE', 'Mike', 'mike chen', 'Pat']);
    if (random() < 0.2) f.mentions_service = pick(['oil-change', 'BRAKES', 'Tire-Rotation', 'x']);
    return f;
  }

  function randomCursor(): SortKey | undefined {
    const roll = random();
    if (roll < 0.4) return undefined;
    return keyOf(roll < 0.75 ? pick(reviews) : pick(gone));
  }

  it('agrees on 3000 random filter combinations, cursors included', () => {
    let nonEmpty = 0;
    let ambiguous = 0;
    for (let i = 0; i < 3000; i++) {
      const f = SearchFilters.parse(randomFilters());
      const after = randomCursor();
      const expected = naive(f, after);
      const outcome = runSearch(idx, f, after);
      const label = JSON.stringify({ f, after });
      if ('ambiguous' in expected) {
        ambiguous++;
        expect(outcome.ok, label).toBe(false);
        expect(!outcome.ok && outcome.issues[0]!.message, label).toContain(
          expected.ambiguous.join(', '),
        );
        continue;
      }
      expect(outcome, label).toEqual({ ok: true, hits: expected });
      if (expected.positions.length > 0) nonEmpty++;
    }
    // The generator exercises both outcomes broadly (not a vacuous comparison of empty pages).
    expect(nonEmpty).toBeGreaterThan(1000);
    expect(ambiguous).toBeGreaterThan(50);
  });

  it('gives the same pages on the rating-and-date fast path as on the general path', () => {
    let compared = 0;
    for (let i = 0; i < 1000; i++) {
      const raw = randomFilters();
      delete raw.query;
      delete raw.mentions_technician;
      delete raw.mentions_service;
      const f = SearchFilters.parse(raw);
      const after = randomCursor();
      const fast = runSearch(idx, f, after);
      // "xq" is in every review, so this query changes no result but takes the general path.
      const general = runSearch(idx, { ...f, query: 'xq' }, after);
      const label = JSON.stringify({ f, after });
      expect(fast, label).toEqual(general);
      expect(fast, label).toEqual({ ok: true, hits: naive(f, after) });
      compared++;
    }
    expect(compared).toBe(1000);
  });

  it('pages through every match exactly once by following cursors', () => {
    for (const filters of [{}, { min_rating: 3 }, { query: 'e' }, { mentions_service: 'brakes' }]) {
      const f = SearchFilters.parse({ ...filters, limit: 7 });
      const expected = naive({ ...f, limit: 100 });
      const seen: number[] = [];
      let after: SortKey | undefined;
      for (;;) {
        const outcome = runSearch(idx, f, after);
        if (!outcome.ok) throw new Error('unexpected issues');
        seen.push(...outcome.hits.positions);
        if (!outcome.hits.more) break;
        after = keyOf(reviews[outcome.hits.positions.at(-1)!]!);
      }
      expect('positions' in expected && expected.positions).toEqual(seen);
      expect(seen.length).toBeGreaterThan(7);
    }
  });
});

describe('aspect and polarity', () => {
  // What the insights found each review to say, in published order (ORDER: b a h c f e d g).
  const builder = new AspectIndexBuilder(['wait-time', 'price-value', 'overall']);
  builder.add(0, 'wait-time', 'negative'); // b
  builder.add(1, 'overall', 'positive'); // a
  builder.add(2, 'wait-time', 'positive'); // h
  builder.add(2, 'overall', 'positive'); // h: once in "any aspect"
  builder.add(6, 'price-value', 'negative'); // d
  builder.add(6, 'overall', 'mixed'); // d
  const aspects = new AspectIndex(builder.finish());
  const about = (filters: Record<string, unknown>): string[] => {
    const outcome = runSearch(
      index,
      SearchFilters.parse({ limit: 100, ...filters }),
      undefined,
      aspects,
    );
    if (!outcome.ok) throw new Error(JSON.stringify(outcome.issues));
    return outcome.hits.positions.map((p) => ordered[p]!.sourceReviewId);
  };

  it('with aspect: the reviews with that polarity on it; without polarity, any', () => {
    expect(about({ aspect: 'wait-time', polarity: 'negative' })).toEqual(['b']);
    expect(about({ aspect: 'wait-time' })).toEqual(['b', 'h']);
    expect(about({ aspect: 'overall', polarity: 'mixed' })).toEqual(['d']);
    expect(about({ aspect: 'financing' })).toEqual([]);
  });

  it('polarity alone: on at least one aspect, each review once', () => {
    expect(about({ polarity: 'positive' })).toEqual(['a', 'h']);
    expect(about({ polarity: 'negative' })).toEqual(['b', 'd']);
    expect(about({ polarity: 'neutral' })).toEqual([]);
  });

  it('combines with the other filters (AND), and pages with cursors', () => {
    expect(about({ polarity: 'negative', max_rating: 1 })).toEqual(['d']);
    expect(about({ aspect: 'overall', since: '2025-03-01' })).toEqual(['a', 'h']);
    expect(about({ aspect: 'overall', query: 'brake' })).toEqual(['a', 'h']);
    expect(about({ aspect: 'overall', query: 'pads' })).toEqual(['a']);
    const outcome = runSearch(
      index,
      SearchFilters.parse({ aspect: 'overall', limit: 1 }),
      keyOf(ordered[1]!),
      aspects,
    );
    expect(outcome.ok && outcome.hits).toMatchObject({ total: 3, more: true });
    expect(outcome.ok && outcome.hits.positions).toEqual([2]);
  });

  it("answers 503 insights_pending without the version's own lists", () => {
    expect(() => runSearch(index, SearchFilters.parse({ polarity: 'negative' }))).toThrow(
      expect.objectContaining({
        code: 'insights_pending',
        status: 503,
        headers: { 'Retry-After': '5' },
      }),
    );
    // Filters without aspect or polarity need no analysis.
    expect(keys({ max_rating: 1 })).toEqual(['d']);
  });

  it('takes positions only in published order', () => {
    const b = new AspectIndexBuilder(['overall']);
    b.add(3, 'overall', 'positive');
    expect(() => b.add(2, 'overall', 'positive')).toThrow(/published order/);
  });
});
