import { describe, expect, it } from 'vitest';
import { detectFormat } from '../detect.js';
import { decodeText } from '../internal/text.js';
import type { MappedCandidate, MappedRow, RowContext } from '../types.js';
import { reviewDateWindow, reviewSourceAsOf } from '../../domain/review-dates.js';
import { validateRow } from '../validate.js';
import { checkBusiness } from './business.js';
import { mapDealerRaterReview } from './dealerrater.js';
import { mapGoogleReview, readGoogleReviews } from './gbp.js';
import { mapPublishedReview } from './reviews-json.js';

const ctx: RowContext = { timeZone: 'UTC', defaultSource: null, noteLocalTime: () => {} };
const schema = reviewSourceAsOf(reviewDateWindow('2026-01-01T00:00:00.000Z', 'UTC'));
const doc = (text: string, path = 'x.json') => decodeText(path, Buffer.from(text));

describe('detectFormat', () => {
  it.each([
    ['{"reviews":[{"reviewId":"a","starRating":"FIVE"}]}', 'gbp'],
    ['[{"name":"accounts/1/locations/2/reviews/a","reviewer":{},"createTime":"x"}]', 'gbp'],
    ['{"DealerId":1,"Reviews":[]}', 'dealerrater'],
    ['{"reviews":[{"Id":1,"Employees":[]}]}', 'dealerrater'],
    [
      '{"business":{},"aggregateRating":{},"reviews":[{"sourceReviewId":"a","reviewRating":{}}]}',
      'reviews-json',
    ],
    ['{"business":{"name":"A"},"reviews":[]}', 'reviews-json'],
    ['{"name":"A","timeZone":"UTC","address":{}}', 'business'],
    ['Rating,Date,Author\n5,2024-01-01,A\n', 'csv'],
  ])('detects %s as %s', (text, format) => {
    expect(detectFormat(doc(text))).toBe(format);
  });

  it('trusts a .csv name and refuses what it cannot tell', () => {
    expect(detectFormat(doc('x', 'export.csv'))).toBe('csv');
    expect(() => detectFormat(doc('{"items":[]}'))).toThrow(/unrecognised file/);
    expect(() => detectFormat(doc('hello world'))).toThrow(/use --format/);
  });
});

describe('row mappers', () => {
  it('maps a Google review, naming Google fields in rejections', () => {
    const row = mapGoogleReview(
      { reviewId: 'a', starRating: 'FIVE', createTime: 'soon', reviewer: { displayName: 'X' } },
      1,
      3,
      ctx,
    );
    expect(row).toMatchObject({ row: 1, line: 3, field: 'createTime' });
    const long = mapGoogleReview(
      {
        reviewId: 'b',
        starRating: 'ONE',
        createTime: '2024-01-01T00:00:00Z',
        reviewer: { displayName: 'x'.repeat(300) },
      },
      2,
      null,
      ctx,
    );
    const result = validateRow(long, schema, false);
    expect(!result.ok && result.rejection.field).toBe('reviewer.displayName');
  });

  it('maps DealerRater keys in either case and reports their names', () => {
    const row = mapDealerRaterReview(
      {
        id: 5,
        rating: 4,
        userName: 'u',
        dateCreated: '2024-01-01T10:00:00Z',
        employees: [{ name: 'A B', rating: 0 }],
      },
      1,
      null,
      ctx,
    ) as MappedCandidate;
    expect(row.candidate).toMatchObject({
      sourceReviewId: '5',
      reviewRating: { ratingValue: 4 },
      taggedStaff: [{ name: 'A B', via: 'tagged', rating: null }],
    });
    const missing = mapDealerRaterReview({ Id: 6, DateCreated: '2024-01-01' }, 2, null, ctx);
    expect(missing).toMatchObject({ field: 'Rating', reason: 'missing rating' });
  });

  it('maps a published review back to its source fields, keeping tags and dropping text matches', () => {
    const row = mapPublishedReview(
      {
        id: 'x',
        date: '2024-01-01',
        source: 'google',
        sourceReviewId: 'g1',
        reviewRating: { ratingValue: 5, bestRating: 5, worstRating: 1 },
        author: { name: 'A' },
        datePublished: '2024-01-01T10:00:00.000Z',
        mentions: {
          technicians: [
            { name: 'Ann Lee', role: 'sales', via: 'tagged', rating: 4 },
            { name: 'Bo Diaz', role: null, via: 'text-match', rating: null },
          ],
          services: ['brakes'],
        },
      },
      1,
      null,
    );
    const result = validateRow(row, schema, false);
    expect(result.ok && result.review.taggedStaff).toEqual([
      { name: 'Ann Lee', via: 'tagged', rating: 4 },
    ]);
  });
});

describe('checkBusiness', () => {
  it('gives staff without an id one from their name, and reports the first problem', () => {
    const base = {
      id: 'shop',
      name: 'Shop',
      url: 'https://shop.example',
      address: {
        streetAddress: '',
        addressLocality: '',
        addressRegion: '',
        postalCode: '',
        addressCountry: 'US',
      },
      timeZone: 'UTC',
    };
    const ok = checkBusiness({
      ...base,
      staff: [
        { name: 'José Núñez', role: 'technician' },
        { name: 'José Núñez', role: 'sales' },
      ],
    });
    expect(ok.ok && ok.business.staff.map((s) => s.id)).toEqual(['jose-nunez', 'jose-nunez-2']);
    expect(checkBusiness({ ...base, timeZone: 'Nowhere/Else' })).toMatchObject({
      ok: false,
      field: 'business.timeZone',
    });
  });
});

describe('implausible dates (after tomorrow or before 1995) in each format', () => {
  const FUTURE = '2099-05-01T10:00:00Z';
  const rejectionOf = (row: MappedRow) => {
    const result = validateRow(row, schema, false);
    return result.ok ? null : { field: result.rejection.field, reason: result.rejection.reason };
  };
  const future = {
    field: expect.any(String),
    reason:
      '2099-05-01 is after tomorrow (2026-01-02 in UTC): a review cannot be dated in the future',
  };

  it('names the Google field: createTime, updateTime, reviewReply.updateTime', () => {
    const google = (over: object) =>
      mapGoogleReview(
        { reviewId: 'a', starRating: 'FIVE', createTime: '2024-01-01T00:00:00Z', ...over },
        1,
        null,
        ctx,
      );
    expect(rejectionOf(google({ createTime: FUTURE }))).toEqual({ ...future, field: 'createTime' });
    expect(rejectionOf(google({ updateTime: FUTURE }))?.field).toBe('updateTime');
    expect(rejectionOf(google({ reviewReply: { comment: 'Thanks', updateTime: FUTURE } }))).toEqual(
      { ...future, field: 'reviewReply.updateTime' },
    );
    expect(rejectionOf(google({ createTime: '1970-01-01T00:00:00Z' }))).toEqual({
      field: 'createTime',
      reason: '1970-01-01 is before 1995-01-01, the earliest date a review may carry',
    });
  });

  it('names the DealerRater field, down to the dealer message that holds the date', () => {
    const dealerRater = (over: object) =>
      mapDealerRaterReview(
        { Id: 1, Rating: 5, DateCreated: '2024-01-01T00:00:00Z', ...over },
        1,
        null,
        ctx,
      );
    expect(rejectionOf(dealerRater({ DateCreated: FUTURE }))?.field).toBe('DateCreated');
    expect(rejectionOf(dealerRater({ DateModified: FUTURE }))?.field).toBe('DateModified');
    const messages = [
      { Type: 'DealerResponse', Text: 'Thanks', DateCreated: '2024-01-02T00:00:00Z' },
      { Type: 'DealerResponse', Text: 'Thanks again', DateCreated: FUTURE },
    ];
    expect(rejectionOf(dealerRater({ Messages: messages }))).toEqual({
      ...future,
      field: 'Messages.1.DateCreated',
    });
  });

  it('names the reviews.json field', () => {
    const published = mapPublishedReview(
      {
        source: 'google',
        sourceReviewId: 'g1',
        reviewRating: { ratingValue: 5 },
        author: { name: 'A' },
        datePublished: '2024-01-01T10:00:00.000Z',
        verification: { level: 'source-confirmed', checkedAt: FUTURE },
      },
      1,
      null,
    );
    expect(rejectionOf(published)).toEqual({ ...future, field: 'verification.checkedAt' });
  });
});

describe('issue 15 (fuzz): what a Google page reports about itself', () => {
  const page = (average: string, total = '212') =>
    readGoogleReviews(doc(`{"reviews":[],"averageRating":${average},"totalReviewCount":${total}}`))
      .reported;

  it('keeps the figures', () => {
    expect(page('4.6')).toEqual({ google: { averageRating: 4.6, totalReviewCount: 212 } });
  });

  it.each([
    ['nested 20,000 deep', `${'['.repeat(20_000)}${']'.repeat(20_000)}`],
    ['a string', `"${'x'.repeat(1000)}"`],
    ['an object', '{"a":1}'],
    ['null', 'null'],
    ['past a double', '1e400'],
  ])('leaves out a value that is not a figure: %s', (_name, average) => {
    // The deep one overflowed the stack that prints the summary: "unexpected error", exit 1.
    const reported = page(average);
    expect(reported).toEqual({ google: { totalReviewCount: 212 } });
    expect(() => JSON.stringify(reported)).not.toThrow();
  });
});

describe('issue 15 (fuzz): ratings that are arrays, objects or booleans', () => {
  const deep = JSON.parse(`${'['.repeat(20_000)}${']'.repeat(20_000)}`) as unknown;

  it.each([
    ['nested 20,000 deep', deep, 'an array'],
    ['an array holding a number', [5], 'an array'],
    ['an object', { stars: 5 }, 'an object'],
  ])('a Google starRating that is %s is a rejected row naming its kind', (_n, value, kind) => {
    // The reason serialised the whole value: a stack overflow for the deep one (exit 1).
    const row = mapGoogleReview(
      { reviewId: 'a', starRating: value, createTime: '2024-01-01T00:00:00Z' },
      1,
      1,
      ctx,
    );
    expect(row).toMatchObject({ field: 'starRating' });
    expect((row as { reason: string }).reason).toContain(`got ${kind}`);
  });

  it.each([
    ['nested 20,000 deep', deep],
    ['an array holding a number', [5]],
    ['true', true],
  ])('a DealerRater Rating that is %s is a rejected row, not a rating', (_n, value) => {
    // Number() joined the array (a stack overflow when deep) and read [5] as 5 and true as 1.
    const row = mapDealerRaterReview(
      { Id: 7, Rating: value, DateCreated: '2024-01-01T10:00:00Z' },
      1,
      null,
      ctx,
    );
    expect(row).toMatchObject({ field: 'Rating' });
    expect((row as { reason: string }).reason).toMatch(/^not a rating: /);
  });
});

describe('issue 15 (fuzz): a first review that is not valid JSON', () => {
  it('is the same file error detection or not, naming its line', () => {
    // Detection parsed the first item with a bare JSON.parse: "unexpected error", exit 1, where
    // the same fault in the second item was a file error.
    const text = (first: string) =>
      `{"reviews":[\n{"reviewId":"a","starRating":"FIVE","comment":"${first}"},\n{"reviewId":"b"}]}`;
    expect(() => detectFormat(doc(text('bad\u0001char')))).toThrow(
      /not valid JSON in the value starting at line 2/,
    );
    expect(detectFormat(doc(text('fine')))).toBe('gbp');
  });
});
