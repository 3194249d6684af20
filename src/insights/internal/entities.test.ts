import { describe, expect, it } from 'vitest';
import { testBusiness } from '../../../test/helpers/fixtures.js';
import type { Review } from '../../domain/review.js';
import { preparedReview } from '../../../test/helpers/prepared.js';
import { Business } from '../../domain/business.js';
import {
  areaOf,
  MIN_TECHNICIAN_MENTIONS,
  serviceAreaInsights,
  serviceInsights,
  technicianInsights,
} from './entities.js';
import type { PreparedReview } from './prepare.js';

const BUSINESS = Business.parse(testBusiness());

const S = {
  brakes: 'Sarah did my brakes and was great about it.',
  forgot: 'Sarah forgot to call me back twice this week.',
  lounge: 'The lounge had good coffee and fast wifi.',
  noHelp: 'Dave Kim and Mike Torres were both no help at all.',
  oil: 'Mike Torres changed the oil, nothing more to say.',
  nice: 'Nice people, would come again some day.',
};

const PREPARED: PreparedReview[] = [
  preparedReview(0, { key: 'p0', rating: 5, technicians: ['Sarah Lopez'], services: ['brakes'] }, [
    {
      text: S.brakes,
      staff: ['Sarah Lopez'],
      services: ['brakes'],
      aspects: [['staff', 'positive', 0.9]],
    },
  ]),
  preparedReview(
    1,
    { key: 'p1', rating: 2, technicians: ['Sarah Lopez'], department: 'sales-new' },
    [{ text: S.forgot, staff: ['Sarah Lopez'], aspects: [['follow-up', 'negative', 0.8]] }],
  ),
  // Sarah is tagged by the source, but no sentence names her: the stars decide.
  preparedReview(
    2,
    { key: 'p2', rating: 4, technicians: ['Sarah Lopez'] },
    [{ text: S.lounge, aspects: [['amenities', 'positive', 0.7]] }],
    'sales',
  ),
  preparedReview(
    3,
    {
      key: 'p3',
      rating: 1,
      technicians: ['Dave Kim', 'Mike Torres'],
      department: 'other',
      title: 'New car purchase',
    },
    [
      {
        text: S.noHelp,
        staff: ['Dave Kim', 'Mike Torres'],
        aspects: [['staff', 'negative', 0.95]],
      },
    ],
  ),
  preparedReview(
    4,
    { key: 'p4', rating: 3, technicians: ['Mike Torres'], services: ['oil-change'] },
    [{ text: S.oil, staff: ['Mike Torres'], services: ['oil-change'] }],
  ),
  preparedReview(5, { key: 'p5', rating: 5 }, [{ text: S.nice }]),
];
const id = (key: string) =>
  PREPARED.find((p) => (p.review as Review).sourceReviewId === key)!.review.id;

describe('technicianInsights', () => {
  it(`lists staff named by at least ${MIN_TECHNICIAN_MENTIONS} reviews, with the sentiment of the sentences naming them`, () => {
    expect(technicianInsights(PREPARED, BUSINESS)).toEqual([
      {
        name: 'Sarah Lopez',
        role: 'technician',
        mentions: 3,
        averageRating: 3.67, // (5 + 2 + 4) / 3
        positive: 2, // p0 by its sentence, p2 by its stars
        negative: 1, // p1
        neutral: 0,
        mixed: 0,
        score: 0.333,
        evidence: {
          positive: [{ reviewId: id('p0'), quote: S.brakes }],
          negative: [{ reviewId: id('p1'), quote: S.forgot }],
          neutral: [],
        },
      },
    ]);
  });

  it('includes a person at exactly the threshold, people off the roster too, sorted by mentions', () => {
    const more = [
      ...PREPARED,
      preparedReview(6, { key: 'p6', rating: 5, technicians: ['Mike Torres', 'Pat Guest'] }, []),
      preparedReview(7, { key: 'p7', rating: 5, technicians: ['Pat Guest'] }, []),
      preparedReview(8, { key: 'p8', rating: 1, technicians: ['Pat Guest'] }, []),
    ];
    const out = technicianInsights(more, BUSINESS);
    expect(out.map((t) => [t.name, t.mentions, t.role])).toEqual([
      ['Mike Torres', 3, 'technician'],
      ['Pat Guest', 3, null],
      ['Sarah Lopez', 3, 'technician'],
    ]);
    // Mike: p3 negative sentence, p4 a sentence without opinion at 3 stars (neutral), p6 by stars.
    expect(out[0]).toMatchObject({ positive: 1, negative: 1, neutral: 1, mixed: 0, score: 0 });
    expect(out[1]).toMatchObject({ positive: 2, negative: 1, averageRating: 3.67 });
    expect(technicianInsights(more.slice(0, 7), BUSINESS).map((t) => t.name)).toEqual([
      'Mike Torres',
      'Sarah Lopez',
    ]);
  });
});

describe('serviceInsights', () => {
  it('lists every catalogue service with its mentions, rating and sentiment', () => {
    expect(serviceInsights(PREPARED, BUSINESS)).toEqual([
      {
        id: 'brakes',
        name: 'Brake service',
        mentions: 1,
        averageRating: 5,
        positive: 1,
        negative: 0,
        neutral: 0,
        mixed: 0,
        score: 1,
        evidence: {
          positive: [{ reviewId: id('p0'), quote: S.brakes }],
          negative: [],
          neutral: [],
        },
      },
      {
        id: 'oil-change',
        name: 'Oil change',
        mentions: 1,
        averageRating: 3,
        positive: 0,
        negative: 0,
        neutral: 1,
        mixed: 0,
        score: 0,
        evidence: { positive: [], negative: [], neutral: [{ reviewId: id('p4'), quote: S.oil }] },
      },
      {
        id: 'tire-rotation',
        name: 'Tire rotation',
        mentions: 0,
        averageRating: null,
        positive: 0,
        negative: 0,
        neutral: 0,
        mixed: 0,
        score: null,
        evidence: { positive: [], negative: [], neutral: [] },
      },
    ]);
    expect(serviceInsights(PREPARED, null)).toEqual([]);
  });
});

describe('service areas', () => {
  it('takes the area from the department, else the services, else the words', () => {
    expect(PREPARED.map(areaOf)).toEqual(['service', 'sales', 'sales', 'sales', 'service', null]);
    const dept = (department: 'sales-used' | 'lease' | 'parts' | 'body-shop' | 'finance') =>
      areaOf(preparedReview(0, { key: department, department }, []));
    expect(dept('sales-used')).toBe('sales');
    expect(dept('lease')).toBe('sales');
    expect(dept('parts')).toBe('parts');
    expect(dept('body-shop')).toBe('body-shop');
    expect(dept('finance')).toBe('finance');
  });

  it('groups reviews per area with the sentiment of their stars and quotes of their sentences', () => {
    expect(serviceAreaInsights(PREPARED)).toEqual([
      {
        id: 'sales',
        name: 'Sales',
        mentions: 3,
        averageRating: 2.33,
        positive: 1,
        negative: 2,
        neutral: 0,
        mixed: 0,
        score: -0.333,
        evidence: {
          positive: [{ reviewId: id('p2'), quote: S.lounge }],
          negative: [
            { reviewId: id('p3'), quote: S.noHelp },
            { reviewId: id('p1'), quote: S.forgot },
          ],
          neutral: [],
        },
      },
      {
        id: 'service',
        name: 'Service department',
        mentions: 2,
        averageRating: 4,
        positive: 1,
        negative: 0,
        neutral: 1,
        mixed: 0,
        score: 0.5,
        evidence: {
          positive: [{ reviewId: id('p0'), quote: S.brakes }],
          negative: [],
          neutral: [],
        },
      },
    ]);
    expect(serviceAreaInsights([])).toEqual([]);
  });
});
