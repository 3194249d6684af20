import { describe, expect, it } from 'vitest';
import { reviewRecord } from '../../../test/helpers/records.js';
import { ownerResponseStats } from './responses.js';

const PUBLISHED = '2025-01-01T12:00:00.000Z';
const hoursLater = (h: number) => new Date(Date.parse(PUBLISHED) + h * 3_600_000).toISOString();

/** A review answered `hours` after it was published (`null`: answered, time unknown). */
const answered = (key: string, hours: number | null) =>
  reviewRecord({
    key,
    datePublished: PUBLISHED,
    ownerResponse: { text: 'Thanks!', dateModified: hours === null ? null : hoursLater(hours) },
  });

describe('ownerResponseStats', () => {
  it('gives the response rate and the median hours to a response', () => {
    const reviews = [
      answered('a', 10),
      answered('b', 2),
      answered('c', 30),
      answered('d', null), // answered, but when is unknown: in the rate, not in the median
      answered('e', -1), // a response dated before the review: not in the median
      reviewRecord({ key: 'f' }),
    ];
    expect(ownerResponseStats(reviews)).toEqual({
      responded: 5,
      total: 6,
      rate: 0.833,
      medianResponseHours: 10,
    });
  });

  it('takes the mean of the two middle values for an even count, to one decimal', () => {
    const reviews = [answered('a', 2), answered('b', 4), answered('c', 10), answered('d', 30)];
    expect(ownerResponseStats(reviews).medianResponseHours).toBe(7);
    expect(ownerResponseStats([answered('a', 1.25)]).medianResponseHours).toBe(1.3);
    expect(ownerResponseStats([answered('a', 0), answered('b', 1 / 3)])).toEqual({
      responded: 2,
      total: 2,
      rate: 1,
      medianResponseHours: 0.2,
    });
  });

  it('gives nulls without reviews or without dated responses', () => {
    expect(ownerResponseStats([])).toEqual({
      responded: 0,
      total: 0,
      rate: null,
      medianResponseHours: null,
    });
    expect(ownerResponseStats([reviewRecord({ key: 'a' }), answered('b', null)])).toEqual({
      responded: 1,
      total: 2,
      rate: 0.5,
      medianResponseHours: null,
    });
  });
});
