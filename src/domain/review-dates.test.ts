import { describe, expect, it } from 'vitest';
import { EARLIEST_REVIEW_DATE, reviewDateWindow, reviewSourceAsOf } from './review-dates.js';
import type { ReviewSourceInput } from './review.js';

// 21:00 on 24 November in Chicago (UTC-6), already 25 November in UTC.
const NOW = '2026-11-25T03:00:00.000Z';

const row = (over: Partial<ReviewSourceInput> = {}): ReviewSourceInput => ({
  source: 'google',
  sourceReviewId: 'r1',
  reviewRating: { ratingValue: 5 },
  author: { name: 'Ann' },
  datePublished: '2026-06-01T12:00:00Z',
  ...over,
});

function issuesOf(input: ReviewSourceInput, timeZone = 'America/Chicago') {
  const parsed = reviewSourceAsOf(reviewDateWindow(NOW, timeZone)).safeParse(input);
  return parsed.success
    ? []
    : parsed.error.issues.map((i) => ({ path: i.path, message: i.message }));
}

describe('the window of plausible review dates', () => {
  it('runs from the floor to tomorrow in the business time zone, both inclusive', () => {
    expect(reviewDateWindow(NOW, 'America/Chicago')).toEqual({
      timeZone: 'America/Chicago',
      earliest: '1995-01-01',
      latest: '2026-11-25',
      from: '1995-01-01T06:00:00.000Z',
      until: '2026-11-26T06:00:00.000Z',
    });
  });

  it('takes tomorrow in UTC, the fallback zone, when no business profile sets one', () => {
    expect(reviewDateWindow(NOW, 'UTC')).toMatchObject({
      latest: '2026-11-26',
      from: '1995-01-01T00:00:00.000Z',
      until: '2026-11-27T00:00:00.000Z',
    });
  });

  it('crosses months, years and zones east of UTC', () => {
    expect(reviewDateWindow('2024-12-31T12:00:00Z', 'Pacific/Kiritimati')).toMatchObject({
      latest: '2025-01-02',
      until: '2025-01-02T10:00:00.000Z',
    });
  });

  it('floors at 1995-01-01, the year online reviews began', () => {
    expect(EARLIEST_REVIEW_DATE).toBe('1995-01-01');
  });
});

describe('reviewSourceAsOf (the plausible-dates rule)', () => {
  it('accepts the last instant of tomorrow and the first of the floor day, local time', () => {
    expect(issuesOf(row({ datePublished: '2026-11-26T05:59:59.999Z' }))).toEqual([]);
    expect(issuesOf(row({ datePublished: '1995-01-01T00:00:00-06:00' }))).toEqual([]);
  });

  it('rejects a date after tomorrow in the business time zone, saying which day it is', () => {
    expect(issuesOf(row({ datePublished: '2026-11-26T06:00:00Z' }))).toEqual([
      {
        path: ['datePublished'],
        message:
          '2026-11-26 is after tomorrow (2026-11-25 in America/Chicago): a review cannot be dated in the future',
      },
    ]);
    // The same instant is tomorrow in UTC, so it passes before a profile sets the zone.
    expect(issuesOf(row({ datePublished: '2026-11-26T06:00:00Z' }), 'UTC')).toEqual([]);
  });

  it('rejects a placeholder far in the future', () => {
    expect(issuesOf(row({ datePublished: '9999-12-31T00:00:00Z' }), 'UTC')).toEqual([
      {
        path: ['datePublished'],
        message:
          '9999-12-31 is after tomorrow (2026-11-26 in UTC): a review cannot be dated in the future',
      },
    ]);
  });

  it('rejects a date before the floor, in local time', () => {
    expect(issuesOf(row({ datePublished: '1994-12-31T23:59:59-06:00' }))).toEqual([
      {
        path: ['datePublished'],
        message: '1994-12-31 is before 1995-01-01, the earliest date a review may carry',
      },
    ]);
    expect(issuesOf(row({ datePublished: '0001-01-01T00:00:00Z' }), 'UTC')[0]?.message).toBe(
      '0001-01-01 is before 1995-01-01, the earliest date a review may carry',
    );
  });

  it.each([
    ['dateModified', { dateModified: '2099-01-01T00:00:00Z' }, ['dateModified']],
    [
      'the owner response date',
      { ownerResponse: { text: 'Thanks!', dateModified: '2099-01-01T00:00:00Z' } },
      ['ownerResponse', 'dateModified'],
    ],
    [
      'the verification time',
      { verification: { level: 'source-confirmed', checkedAt: '1970-01-01T00:00:00Z' } },
      ['verification', 'checkedAt'],
    ],
  ] as const)('covers %s', (_name, over, path) => {
    expect(issuesOf(row(over as Partial<ReviewSourceInput>)).map((i) => i.path)).toEqual([path]);
  });

  it('accepts a review without the optional dates', () => {
    const input = row({ dateModified: null, ownerResponse: { text: 'Thanks!' } });
    expect(issuesOf(input)).toEqual([]);
  });
});

describe('edits before the review was written (issue 15)', () => {
  it('rejects a dateModified on a day before datePublished (swapped columns, a typo)', () => {
    expect(
      issuesOf(
        row({ datePublished: '2026-06-01T12:00:00Z', dateModified: '2026-05-20T12:00:00Z' }),
      ),
    ).toEqual([
      {
        path: ['dateModified'],
        message:
          "2026-05-20 is before the review's own date 2026-06-01: a review cannot be edited before it is written",
      },
    ]);
  });

  it('takes an earlier time on the same local day (a date without a time is noon)', () => {
    expect(
      issuesOf(
        row({ datePublished: '2026-06-01T20:00:00Z', dateModified: '2026-06-01T17:00:00Z' }),
      ),
    ).toEqual([]);
  });
});

describe('control characters in imported texts (issue 15)', () => {
  it('are removed from texts and names; names are one line; tab and line breaks stay in texts', () => {
    const parsed = reviewSourceAsOf(reviewDateWindow(NOW, 'UTC')).parse(
      row({
        author: { name: 'Ann\u0000 \u001b[31mLee\u0085\n' },
        name: 'Great\tvisit\r\n',
        reviewBody: 'Line one\u0007\nline\ttwo\u009b',
        ownerResponse: { text: 'Thanks\u0000!\r\nThe team' },
        taggedStaff: [{ name: 'Mike\u0000\nTorres' }],
      }),
    );
    expect(parsed.author.name).toBe('Ann [31mLee');
    expect(parsed.name).toBe('Great visit');
    expect(parsed.reviewBody).toBe('Line one\nline\ttwo');
    expect(parsed.ownerResponse?.text).toBe('Thanks!\r\nThe team');
    expect(parsed.taggedStaff[0]?.name).toBe('Mike Torres');
  });

  it('a name or text of control characters alone is empty: refused or null', () => {
    expect(issuesOf(row({ author: { name: '\u0000\u001b' } }))[0]?.path).toEqual([
      'author',
      'name',
    ]);
    const parsed = reviewSourceAsOf(reviewDateWindow(NOW, 'UTC')).parse(
      row({ reviewBody: '\u0000\u0001' }),
    );
    expect(parsed.reviewBody).toBeNull();
  });
});
