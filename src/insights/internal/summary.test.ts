import { describe, expect, it } from 'vitest';
import type { Evidence, Insights } from '../schema.js';
import { aspectInsight } from '../../../test/helpers/aspects.js';
import { computeSummary, praiseLowerBound } from './summary.js';

const quote = (id: string, n: number): Evidence => ({
  reviewId: `${id}-${n}`,
  quote: `Quote ${n} about ${id}.`,
});

/** An aspect with these counts, three quotes of each of its first two polarities. */
const aspect = (id: string, name: string, counts: [number, number, number, number]) =>
  aspectInsight(id, name, counts, {
    positive: [quote(id, 1), quote(id, 2), quote(id, 3)],
    negative: [quote(id, 4), quote(id, 5), quote(id, 6)],
    neutral: [],
  });

const ASPECTS = [
  aspect('overall', 'Overall', [50, 0, 0, 0]), // never a strength or weakness
  aspect('staff', 'Staff', [40, 2, 0, 0]), // score 0.905
  aspect('cleanliness', 'Cleanliness', [10, 0, 0, 0]), // score 1
  aspect('price-value', 'Price and value', [5, 5, 0, 2]), // complaints 7 of 12
  aspect('wait-time', 'Wait time', [5, 2, 0, 0]), // score 0.43, complaints 0.29
  aspect('scheduling', 'Scheduling', [0, 4, 0, 0]), // 4 mentions: too few
  aspect('follow-up', 'Follow-up', [6, 3, 0, 1]), // score 0.3 (not above it), complaints 0.4
  aspect('parking', 'Parking', [7, 0, 3, 0]), // score 0.7
  aspect('nobody', 'Nobody', [0, 0, 0, 0]),
];

const RESPONSES: Insights['ownerResponses'] = {
  responded: 83,
  total: 100,
  rate: 0.83,
  medianResponseHours: 10,
};

const CHANGE: Insights['changes'][number] = {
  aspect: 'wait-time',
  name: 'Wait time',
  direction: 'worse',
  metric: 'negativeShare',
  recent: { from: '2025-04-02', to: '2025-06-30', mentions: 20, negativeShare: 0.4 },
  before: { from: '2024-04-02', to: '2025-04-01', mentions: 20, negativeShare: 0.1 },
  test: {
    name: 'two-proportion z-test',
    z: 2.191,
    pValue: 0.02846,
    alpha: 0.05,
    correction: 'holm',
    tested: 1,
    adjustedPValue: 0.02846,
  },
};

describe('computeSummary', () => {
  it('names the three most surely praised aspects as strengths and the most complained-about as weaknesses', () => {
    const summary = computeSummary(ASPECTS, [], RESPONSES, 100);
    // Cleanliness scores higher (10 of 10 against 40 of 42), but 40 of 42 vouches for more praise.
    expect(summary.strengths.map((s) => s.aspect)).toEqual(['staff', 'cleanliness', 'parking']);
    // wait-time (5 of 7 praise it) is fourth: not a strength, and at 29% of complaints a weakness.
    expect(summary.weaknesses.map((s) => s.aspect)).toEqual([
      'price-value',
      'follow-up',
      'wait-time',
    ]);
    expect(summary.strengths[0]).toEqual({
      aspect: 'staff',
      statement: 'Staff: 42 reviews mention it, 95% positively and 5% with a complaint.',
      evidence: [quote('staff', 1), quote('staff', 2)],
    });
    expect(summary.weaknesses[0]).toEqual({
      aspect: 'price-value',
      statement: 'Price and value: 12 reviews mention it, 42% positively and 58% with a complaint.',
      evidence: [quote('price-value', 4), quote('price-value', 5)],
    });
    expect(summary.recent).toEqual([]);
    expect(summary.text).toBe(
      'Customers praise most: staff (40 of the 42 reviews that mention it), cleanliness (10 of 10), parking (7 of 10). ' +
        'Most complaints concern price and value (7 of the 12 reviews that mention it complain), follow-up (4 of 10), wait time (2 of 7). ' +
        'Lately, no clear change: no topic moved more than chance explains (last three months against the year before). ' +
        'The business answered 83% of reviews, typically within 10 hours. ' +
        'How sure: these figures are read automatically from 100 reviews; the reading misses some mentions, so counts are lower bounds, and topics fewer than 20 reviews mention are indications only.',
    );
  });

  it('ranks praise by the lower end of its 95 % Wilson interval', () => {
    const praise = (positive: number, mentions: number) =>
      praiseLowerBound(aspect('a', 'A', [positive, mentions - positive, 0, 0]));
    expect(praise(10, 10)).toBeCloseTo(0.7225, 4);
    expect(praise(40, 42)).toBeCloseTo(0.8421, 4);
    expect(praise(0, 10)).toBeCloseTo(0, 10);
    expect(praiseLowerBound(aspect('none', 'None', [0, 0, 0, 0]))).toBe(0);
    // The same share on more reviews is surer.
    expect(praise(80, 100)).toBeGreaterThan(praise(8, 10));
  });

  it('ranks complaints by count as well as share, and never leaves out the most complained-about aspect', () => {
    const aspects = [
      // The most complaints (30), at a modest share (15%): not a strength (score 0.275).
      aspect('price-value', 'Price and value', [80, 25, 90, 5]),
      aspect('wait-time', 'Wait time', [5, 10, 0, 2]), // 12 complaints, 71%
      aspect('staff', 'Staff', [90, 8, 2, 0]), // 8 complaints (8%), a strength
      aspect('follow-up', 'Follow-up', [3, 2, 0, 1]), // 3 complaints, 50%
      aspect('parking', 'Parking', [8, 1, 1, 0]), // 1 complaint, 10%, a strength
    ];
    const summary = computeSummary(aspects, [], RESPONSES, 300);
    expect(summary.weaknesses.map((w) => w.aspect)).toEqual([
      'price-value',
      'wait-time',
      'follow-up',
    ]);
    expect(summary.text).toContain(
      'Most complaints concern price and value (30 of the 200 reviews that mention it complain), wait time (12 of 17), follow-up (3 of 6); wait time has the highest share of complaints.',
    );
    // The aspect with the most complaints is named even when it is also a strength.
    const praised = computeSummary(
      [aspect('staff', 'Staff', [300, 40, 0, 0]), aspect('wait-time', 'Wait time', [5, 10, 0, 2])],
      [],
      RESPONSES,
      300,
    );
    expect(praised.strengths.map((s) => s.aspect)).toEqual(['staff']);
    expect(praised.weaknesses.map((w) => w.aspect)).toEqual(['staff', 'wait-time']);
  });

  it('needs more mentions as the review count grows (2%, at least 5)', () => {
    // 1000 reviews: at least 20 mentions, so only staff (42) qualifies: a strength, and the
    // aspect with the most complaints (2), which the summary names with its share.
    const summary = computeSummary(ASPECTS, [], RESPONSES, 1000);
    expect(summary.strengths.map((s) => s.aspect)).toEqual(['staff']);
    expect(summary.weaknesses.map((s) => s.aspect)).toEqual(['staff']);
    expect(summary.text).toContain(
      'Most complaints concern staff (2 of the 42 reviews that mention it complain).',
    );
  });

  it('states each significant change, and leaves out the responses sentence without a rate', () => {
    const summary = computeSummary(ASPECTS, [CHANGE], { ...RESPONSES, rate: null }, 100);
    expect(summary.recent).toEqual([
      {
        aspect: 'wait-time',
        statement:
          'Lately, wait time got worse: 40% of the 20 reviews that mentioned it in the last three months complained, against 10% of 20 in the year before, a difference too large to be chance.',
      },
    ]);
    // The change closes the summary's findings: no responses sentence follows it, only how sure.
    expect(summary.text).toContain(` ${summary.recent[0]!.statement} How sure: `);
    expect(summary.text).not.toContain('answered');
    const noMedian = computeSummary([], [], { ...RESPONSES, medianResponseHours: null }, 100);
    expect(noMedian.text).toBe(
      'Lately, no clear change: no topic moved more than chance explains (last three months against the year before). The business answered 83% of reviews. ' +
        'How sure: these figures are read automatically from 100 reviews; the reading misses some mentions, so counts are lower bounds, and topics fewer than 20 reviews mention are indications only.',
    );
  });

  it('says there are no reviews yet for an empty dataset', () => {
    expect(
      computeSummary(
        ASPECTS.map((a) => ({ ...a })),
        [],
        RESPONSES,
        0,
      ).text,
    ).toBe('There are no reviews yet.');
    expect(
      computeSummary([], [], { responded: 0, total: 0, rate: null, medianResponseHours: null }, 0),
    ).toEqual({ text: 'There are no reviews yet.', strengths: [], weaknesses: [], recent: [] });
  });
});
