import { describe, expect, it } from 'vitest';
import { testBusiness } from '../../test/helpers/fixtures.js';
import { reviewRecord } from '../../test/helpers/records.js';
import { Business } from '../domain/business.js';
import { seededRandom } from '../domain/random.js';
import type { Review } from '../domain/review.js';
import { listAt, packedCount, stringAt } from './packed.js';
import { IndexBuilder, wordRuns } from './search-index.js';

const business = Business.parse(testBusiness());

// Words of several scripts and lengths (up to 3 bytes per UTF-16 unit), and many distinct ones:
// 4,000 reviews make the builder's packed haystacks (64 bytes per review at first) and its list of
// word ids (1,024 at first) grow many times.
const WORDS = [
  'oil',
  'Brake',
  'ÉTÉ',
  'naïve',
  '売り場',
  'service',
  'Ünïcödé',
  'tyres',
  '🚗',
  'fast',
];

function reviews(count: number): Review[] {
  const random = seededRandom(7);
  const pick = (): string =>
    random() < 0.3
      ? WORDS[Math.floor(random() * WORDS.length)]!
      : `w${Math.floor(random() * 5_000)}`;
  return Array.from({ length: count }, (_, i) => {
    const length = Math.floor(random() * 300);
    return reviewRecord({
      key: `r${String(count - i).padStart(5, '0')}`,
      rating: 1 + (i % 5),
      date: `2025-0${1 + (i % 9)}-1${i % 10}`,
      title: i % 3 === 0 ? null : `${pick()} ${pick()}`,
      body: i % 7 === 0 ? null : Array.from({ length }, pick).join(' '),
      department: i % 4 === 0 ? null : 'service',
      technicians: i % 5 === 0 ? ['Maria Lopez'] : [],
      services: i % 6 === 0 ? ['oil-change'] : [],
    });
  });
}

describe('IndexBuilder', () => {
  it('builds, one review at a time, the columns and lists a plain computation gives', () => {
    const list = reviews(4_000);
    const builder = new IndexBuilder(business, list.length);
    for (const r of list) builder.add(r);
    const data = builder.finish();

    const hay = list.map((r) => `${r.name ?? ''}\u0000${r.reviewBody ?? ''}`.toLowerCase());
    expect(Buffer.byteLength(hay.join(''))).toBeGreaterThan(1024 * 1024);
    expect(hay.reduce((n, h) => n + new Set(wordRuns(h)).size, 0)).toBeGreaterThan(262_144);
    expect(packedCount(data.haystacks)).toBe(list.length);
    hay.forEach((h, pos) => expect(stringAt(data.haystacks, pos)).toBe(h));
    list.forEach((r, pos) => {
      expect(stringAt(data.ids, pos)).toBe(r.id);
      expect(stringAt(data.published, pos)).toBe(r.datePublished);
      expect(stringAt(data.modified, pos)).toBe(r.dateModified);
      expect(data.rating[pos]).toBe(r.reviewRating.ratingValue);
      expect(data.hasText[pos]).toBe(r.reviewBody === null ? 0 : 1);
      expect(data.departments[data.departmentOf[pos]!]).toBe(r.department ?? 'unknown');
    });

    // Every word's positions, ascending, and nothing else.
    const expected = new Map<string, number[]>();
    hay.forEach((h, pos) => {
      for (const w of new Set(wordRuns(h))) {
        const list = expected.get(w);
        if (list) list.push(pos);
        else expected.set(w, [pos]);
      }
    });
    const vocabulary = Array.from({ length: packedCount(data.vocabulary) }, (_, w) =>
      stringAt(data.vocabulary, w),
    );
    expect(vocabulary).toEqual([...expected.keys()]);
    vocabulary.forEach((w, id) => expect([...listAt(data.postings, id)]).toEqual(expected.get(w)));

    const maria = data.staffKeys.indexOf('maria lopez');
    expect([...listAt(data.staffLists, maria)]).toEqual(
      list.flatMap((r, pos) => (r.mentions.technicians.length ? [pos] : [])),
    );
    // Ids sorted: the position of each id in id order.
    const sorted = [...list.keys()].sort((a, b) => (list[a]!.id < list[b]!.id ? -1 : 1));
    expect([...data.idOrder]).toEqual(sorted);
  });

  it('refuses more or fewer reviews than announced', () => {
    const [a, b] = reviews(2);
    const one = new IndexBuilder(business, 1);
    one.add(a!);
    expect(() => one.add(b!)).toThrow(/more than 1 reviews/);
    const two = new IndexBuilder(business, 2);
    two.add(a!);
    expect(() => two.finish()).toThrow(/1 of 2 reviews/);
  });
});
