import { describe, expect, it } from 'vitest';
import { preparedReview } from '../../../test/helpers/prepared.js';
import type { Polarity } from '../analyzer.js';
import { addDays, computeChanges, holmAdjust, RECENT_DAYS, twoProportionTest } from './changes.js';
import type { PreparedReview } from './prepare.js';

const CATEGORIES = [
  { id: 'wait-time', name: 'Wait time' },
  { id: 'staff', name: 'Staff' },
];

// With the newest review on 2025-06-30, the last 90 days run from 2025-04-02, and the 365 days
// before them from 2024-04-02 to 2025-04-01.
const NEWEST = '2025-06-30';
const RECENT = { from: '2025-04-02', to: NEWEST };
const BEFORE = { from: '2024-04-02', to: '2025-04-01' };

let serial = 0;

/** `n` reviews on `date` about `category`, the first `negative` of them negative, the rest positive. */
function reviews(
  date: string,
  n: number,
  negative: number,
  category = 'wait-time',
  negativeAs: Polarity = 'negative',
): PreparedReview[] {
  return Array.from({ length: n }, (_, i) => {
    const key = `v${serial++}`;
    return preparedReview(0, { key, date }, [
      {
        text: `Visit ${key} went as it went, for this aspect.`,
        aspects: [[category, i < negative ? negativeAs : 'positive']],
      },
    ]);
  });
}

describe('addDays and twoProportionTest', () => {
  it('adds calendar days across months, leap days and years', () => {
    expect(addDays('2025-03-01', -1)).toBe('2025-02-28');
    expect(addDays('2024-03-01', -1)).toBe('2024-02-29');
    expect(addDays('2024-12-31', 1)).toBe('2025-01-01');
    expect(addDays(NEWEST, -(RECENT_DAYS - 1))).toBe(RECENT.from);
    expect(addDays(RECENT.from, -365)).toBe(BEFORE.from);
  });

  it('computes the pooled two-proportion z-test and its two-sided p-value', () => {
    // Reference values: z from the pooled standard error, p = erfc(|z| / sqrt 2).
    const a = twoProportionTest(5, 10, 0, 10);
    expect(a.z).toBeCloseTo(2.581989, 5);
    expect(a.pValue).toBeCloseTo(0.0098233, 6);
    const b = twoProportionTest(0, 10, 5, 10);
    expect(b.z).toBeCloseTo(-2.581989, 5);
    expect(b.pValue).toBeCloseTo(a.pValue, 10);
    expect(twoProportionTest(8, 20, 2, 20).pValue).toBeCloseTo(0.0284597, 6);
    expect(twoProportionTest(7, 20, 2, 20).pValue).toBeCloseTo(0.0583305, 6);
    expect(twoProportionTest(30, 100, 15, 100).pValue).toBeCloseTo(0.0110852, 6);
  });

  it("adjusts p-values by Holm's step-down method, in their order", () => {
    // Reference values from R: p.adjust(c(0.01, 0.04, 0.03, 0.005), "holm").
    expect(holmAdjust([0.01, 0.04, 0.03, 0.005])).toEqual([0.03, 0.06, 0.06, 0.02]);
    expect(holmAdjust([0.5, 0.9])).toEqual([1, 1]);
    expect(holmAdjust([0.02])).toEqual([0.02]);
    expect(holmAdjust([])).toEqual([]);
  });

  it('gives z 0 and p 1 when the proportions cannot differ', () => {
    expect(twoProportionTest(0, 10, 0, 10)).toEqual({ z: 0, pValue: 1 });
    expect(twoProportionTest(10, 10, 12, 12)).toEqual({ z: 0, pValue: 1 });
    expect(twoProportionTest(3, 10, 3, 10).pValue).toBeCloseTo(1, 6);
  });
});

describe('computeChanges', () => {
  it('reports an aspect whose negative share rose significantly, with both periods and the test', () => {
    const prepared = [
      ...reviews(NEWEST, 1, 1),
      ...reviews('2025-05-15', 19, 7),
      ...reviews('2024-10-01', 20, 2),
    ];
    expect(computeChanges(prepared, CATEGORIES, NEWEST)).toEqual([
      {
        aspect: 'wait-time',
        name: 'Wait time',
        direction: 'worse',
        metric: 'negativeShare',
        recent: { ...RECENT, mentions: 20, negativeShare: 0.4 },
        before: { ...BEFORE, mentions: 20, negativeShare: 0.1 },
        test: {
          name: 'two-proportion z-test',
          z: 2.191,
          pValue: 0.02846,
          alpha: 0.05,
          correction: 'holm',
          tested: 1,
          adjustedPValue: 0.02846,
        },
      },
    ]);
  });

  it('reports nothing when the difference is not significant at 0.05', () => {
    // 7 of 20 against 2 of 20: p = 0.058.
    const prepared = [...reviews(NEWEST, 20, 7), ...reviews('2024-10-01', 20, 2)];
    expect(computeChanges(prepared, CATEGORIES, NEWEST)).toEqual([]);
  });

  it('needs at least 20 mentions on each side', () => {
    const at = (recent: number, before: number) =>
      computeChanges(
        [...reviews(NEWEST, recent, 10), ...reviews('2024-10-01', before, 0)],
        CATEGORIES,
        NEWEST,
      );
    expect(at(20, 20)).toHaveLength(1); // 10 of 20 against 0 of 20: p < 0.001
    expect(at(19, 20)).toEqual([]);
    expect(at(20, 19)).toEqual([]);
  });

  it("adjusts the p-values of all the aspects tested by Holm's method", () => {
    // Alone, 8 of 20 against 2 of 20 (p = 0.0285) is a change. Beside a second aspect tested
    // with a larger p-value, Holm doubles the smallest: 0.0569, no longer under 0.05.
    const wait = [...reviews(NEWEST, 20, 8), ...reviews('2024-10-01', 20, 2)];
    expect(computeChanges(wait, CATEGORIES, NEWEST)).toHaveLength(1);
    const staff = [...reviews(NEWEST, 20, 5, 'staff'), ...reviews('2024-10-01', 20, 5, 'staff')];
    expect(computeChanges([...wait, ...staff], CATEGORIES, NEWEST)).toEqual([]);
    // A strong change survives beside it, and says how many aspects were tested.
    const strong = [...reviews(NEWEST, 20, 12), ...reviews('2024-10-01', 20, 2)];
    expect(computeChanges([...strong, ...staff], CATEGORIES, NEWEST)).toMatchObject([
      { aspect: 'wait-time', test: { correction: 'holm', tested: 2 } },
    ]);
  });

  it('reports a fall in complaints as better', () => {
    const prepared = [...reviews(NEWEST, 20, 0), ...reviews('2024-10-01', 20, 10)];
    const [change] = computeChanges(prepared, CATEGORIES, NEWEST);
    expect(change).toMatchObject({
      direction: 'better',
      recent: { negativeShare: 0 },
      before: { negativeShare: 0.5 },
    });
    expect(change!.test.z).toBe(-3.651);
  });

  it('counts mixed reviews as complaints, and neutral ones as none', () => {
    const mixed = [
      ...reviews(NEWEST, 20, 10, 'wait-time', 'conflict'),
      ...reviews('2024-10-01', 20, 0),
    ];
    expect(computeChanges(mixed, CATEGORIES, NEWEST)).toMatchObject([
      { recent: { negativeShare: 0.5 } },
    ]);
    const neutral = [
      ...reviews(NEWEST, 20, 10, 'wait-time', 'neutral'),
      ...reviews('2024-10-01', 20, 0),
    ];
    expect(computeChanges(neutral, CATEGORIES, NEWEST)).toEqual([]);
  });

  it('puts each day on its side of the boundaries and ignores older reviews', () => {
    const prepared = [
      ...reviews(RECENT.from, 20, 10), // first day of the recent period
      ...reviews(BEFORE.to, 10, 0), // last day of the period before
      ...reviews(BEFORE.from, 10, 0), // its first day
      ...reviews(addDays(BEFORE.from, -1), 30, 30), // too old: ignored
    ];
    expect(computeChanges(prepared, CATEGORIES, NEWEST)).toMatchObject([
      {
        recent: { mentions: 20, negativeShare: 0.5 },
        before: { mentions: 20, negativeShare: 0 },
      },
    ]);
  });

  it('counts a review once per aspect and sorts the changes by p-value', () => {
    const twice = (date: string, negative: boolean): PreparedReview =>
      preparedReview(0, { key: `t${serial++}`, date }, [
        { text: 'The first sentence about waiting here.', aspects: [['wait-time', 'positive']] },
        {
          text: 'The second sentence about waiting here.',
          aspects: [['wait-time', negative ? 'negative' : 'positive']],
        },
      ]);
    const prepared = [
      ...Array.from({ length: 20 }, (_, i) => twice(NEWEST, i < 10)), // 10 mixed of 20
      ...Array.from({ length: 20 }, () => twice('2024-10-01', false)),
      ...reviews(NEWEST, 24, 18, 'staff'),
      ...reviews('2024-10-01', 24, 6, 'staff'),
      ...reviews(NEWEST, 25, 25, 'not-a-category'),
    ];
    const changes = computeChanges(prepared, CATEGORIES, NEWEST);
    // wait-time: 10/20 against 0/20, p = 0.0003; staff: 18/24 against 6/24, p = 0.0005.
    expect(changes.map((c) => [c.aspect, c.recent.mentions, c.before.mentions])).toEqual([
      ['wait-time', 20, 20],
      ['staff', 24, 24],
    ]);
    expect(changes[0]!.test.pValue).toBeLessThan(changes[1]!.test.pValue);
  });

  it('reports nothing without reviews', () => {
    expect(computeChanges([], CATEGORIES, undefined)).toEqual([]);
    expect(computeChanges([], CATEGORIES, NEWEST)).toEqual([]);
  });
});
