import { describe, expect, it } from 'vitest';
import { decodeText } from '../internal/text.js';
import type { MappedCandidate, MappedRow, RowContext } from '../types.js';
import { reviewDateWindow, reviewSourceAsOf } from '../../domain/review-dates.js';
import { validateRow } from '../validate.js';
import { mapColumns, mapSourceName, normalizeHeader } from './csv-columns.js';
import { contentId, readCsvReviews } from './csv.js';

const ctx: RowContext = { timeZone: 'UTC', defaultSource: null, noteLocalTime: () => {} };
const schema = reviewSourceAsOf(reviewDateWindow('2026-01-01T00:00:00.000Z', 'UTC'));

function rowsOf(csv: string, c: RowContext = ctx): MappedRow[] {
  return [...readCsvReviews(decodeText('x.csv', Buffer.from(csv))).rows(c)];
}

describe('CSV column aliases', () => {
  it('normalises headers in any case or style', () => {
    expect(
      ['Review Date', 'reviewDate', 'review-date', ' REVIEW_DATE '].map(normalizeHeader),
    ).toEqual(['review_date', 'review_date', 'review_date', 'review_date']);
    expect(normalizeHeader('author.name')).toBe('author_name');
    expect(normalizeHeader('reviewID')).toBe('review_id');
  });

  it('maps each field to the first alias present and lists the ignored columns', () => {
    const { columns, ignored } = mapColumns([
      'Score',
      'Comment',
      'Created',
      'Name',
      'Business',
      'Title',
    ]);
    expect(columns).toMatchObject({ rating: 0, text: 1, date: 2, author: 3, title: 5 });
    expect(ignored).toEqual(['Business']);
  });

  it('maps source names to source ids', () => {
    expect(mapSourceName('Google My Business')).toEqual({ source: 'google', known: true });
    expect(mapSourceName('Cars.com')).toEqual({ source: 'cars-com', known: true });
    expect(mapSourceName('Edmunds')).toEqual({ source: 'other', known: false });
  });
});

describe('readCsvReviews', () => {
  it('gives a row without an id a deterministic id from its content', () => {
    const csv = 'rating,date,reviewer,text\n5,2024-01-02,Ann,Nice\n5,2024-01-02,Ann,Nice!\n';
    const [a, b] = rowsOf(csv) as MappedCandidate[];
    expect(a!.candidate.sourceReviewId).toBe(contentId('other', '2024-01-02', 'Ann', 'Nice'));
    expect(a!.candidate.sourceReviewId).not.toBe(b!.candidate.sourceReviewId);
    expect(rowsOf(csv).map((r) => r.key)).toEqual([a!.key, b!.key]);
  });

  it('uses --source for rows without a source column', () => {
    const [row] = rowsOf('stars,date,author\n4,2024-01-02,Ann\n', {
      ...ctx,
      defaultSource: 'yelp',
    });
    expect((row as MappedCandidate).candidate.source).toBe('yelp');
  });

  it('names the CSV header in rejections and keeps the key for --prune', () => {
    const [row] = rowsOf('id,stars,date,author\nr1,6,2024-01-02,Ann\n');
    expect(row).toMatchObject({ field: 'stars', reason: 'rating must be from 1 to 5, got 6' });
    expect(row!.key).toEqual({ source: 'other', sourceReviewId: 'r1' });
    const [bad] = rowsOf('id,stars,date,author,url\nr1,5,2024-01-02,Ann,not a url\n');
    const result = validateRow(bad!, schema, false);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.rejection).toMatchObject({ row: 1, line: 2, field: 'url' });
  });

  it('names the CSV header of a date after tomorrow or before 1995', () => {
    const csv = [
      'id,stars,Review Date,author,Response Date,response',
      'r1,5,12/31/9999,Ann,,',
      'r2,5,2024-01-02,Bo,2100-01-01,Thanks',
      'r3,5,1899-12-30,Cy,,',
      'r4,5,2024-01-02,Di,2024-01-03,Thanks',
    ].join('\n');
    const results = rowsOf(csv).map((r) => validateRow(r, schema, false));
    expect(results.map((r) => (r.ok ? 'ok' : [r.rejection.field, r.rejection.reason]))).toEqual([
      [
        'Review Date',
        '9999-12-31 is after tomorrow (2026-01-02 in UTC): a review cannot be dated in the future',
      ],
      [
        'Response Date',
        '2100-01-01 is after tomorrow (2026-01-02 in UTC): a review cannot be dated in the future',
      ],
      ['Review Date', '1899-12-30 is before 1995-01-01, the earliest date a review may carry'],
      'ok',
    ]);
  });

  it('rejects a row with more fields than the header and an empty author', () => {
    const rows = rowsOf('id,stars,date,author\nr1,5,2024-01-02,Ann,extra\nr2,5,2024-01-02,\n');
    expect(rows.map((r) => ('reason' in r ? [r.field, r.reason] : null))).toEqual([
      ['(row)', 'has 5 fields but the header has 4'],
      ['author', 'missing author'],
    ]);
  });
});
