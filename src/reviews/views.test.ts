import { describe, expect, it } from 'vitest';
import { testBusiness } from '../../test/helpers/fixtures.js';
import { reviewRecord } from '../../test/helpers/records.js';
import { computeAggregate } from '../domain/aggregate.js';
import { Business } from '../domain/business.js';
import { seededRandom } from '../domain/random.js';
import { DEPARTMENTS, SOURCES, type Review } from '../domain/review.js';
import { buildIndexData, SearchIndex } from './search-index.js';
import { rangeAggregates, type GroupBy } from './views.js';

const business = Business.parse(testBusiness());

/**
 * Reviews over three years, of every source and department, edited at times of two lengths (with
 * and without milliseconds: the latest is the greatest string, as `dateModified` is compared).
 */
function reviews(count: number): Review[] {
  const random = seededRandom(11);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  return Array.from({ length: count }, (_, i) => {
    const year = 2023 + Math.floor(random() * 3);
    const month = String(1 + Math.floor(random() * 12)).padStart(2, '0');
    const day = String(1 + Math.floor(random() * 28)).padStart(2, '0');
    const record = reviewRecord({
      key: `k${i}`,
      source: pick(SOURCES),
      rating: 1 + Math.floor(random() * 5),
      date: `${year}-${month}-${day}`,
      body: random() < 0.2 ? null : 'Fine.',
      department: random() < 0.1 ? null : pick(DEPARTMENTS),
    });
    const edited = `2026-0${1 + Math.floor(random() * 9)}-1${Math.floor(random() * 10)}T0${Math.floor(random() * 10)}:00:00`;
    return { ...record, dateModified: random() < 0.5 ? `${edited}Z` : `${edited}.${i % 10}00Z` };
  });
}

/** The same figures from the records: each group's reviews, then `computeAggregate`. */
function plainly(list: readonly Review[], groupBy: GroupBy | undefined) {
  const key = (r: Review): string =>
    groupBy === 'month'
      ? r.date.slice(0, 7)
      : groupBy === 'department'
        ? (r.department ?? 'unknown')
        : r.source;
  const groups = new Map<string, Review[]>();
  for (const r of groupBy ? list : []) {
    const group = groups.get(key(r));
    if (group) group.push(r);
    else groups.set(key(r), [r]);
  }
  return {
    overall: computeAggregate(list),
    groups: [...groups.keys()]
      .sort()
      .map((k) => ({ key: k, aggregateRating: computeAggregate(groups.get(k)!) })),
  };
}

describe('rangeAggregates', () => {
  const list = reviews(3_000);
  const index = new SearchIndex(buildIndexData(list, business));

  it.each([undefined, 'month', 'department', 'source'] as const)(
    'counts a range of positions as the records would (grouped by %s)',
    (groupBy) => {
      for (const [from, to] of [
        [0, list.length],
        [117, 2_048],
        [5, 6],
        [40, 40],
      ] as const) {
        expect(rangeAggregates(index, from, to, groupBy)).toEqual(
          plainly(list.slice(from, to), groupBy),
        );
      }
    },
  );
});
