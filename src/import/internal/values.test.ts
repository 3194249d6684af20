import { describe, expect, it } from 'vitest';
import type { RowContext } from '../types.js';
import {
  parseDateTime,
  parseDepartment,
  parseLooseRating,
  parseStarWord,
  splitNames,
} from './values.js';

const ctx = (timeZone = 'America/Chicago'): RowContext & { local: number } => {
  const c = { timeZone, defaultSource: null, local: 0, noteLocalTime: () => void c.local++ };
  return c;
};

describe('rating parsers', () => {
  it('maps the star words ONE..FIVE (any case) and rejects the rest', () => {
    expect(['ONE', 'TWO', 'THREE', 'FOUR', 'five'].map((w) => parseStarWord(w, 'f'))).toEqual([
      1, 2, 3, 4, 5,
    ]);
    expect(() => parseStarWord('STAR_RATING_UNSPECIFIED', 'f')).toThrow('rating is unspecified');
    expect(() => parseStarWord('SIX', 'f')).toThrow(/must be one of ONE, TWO/);
    expect(() => parseStarWord(undefined, 'f')).toThrow('missing rating');
    expect(() => parseStarWord(0, 'f')).toThrow(/from 1 to 5/);
  });

  it('reads the ratings reputation tools write', () => {
    const cases: [string, number][] = [
      ['5', 5],
      ['4.0', 4],
      ['4.5', 5],
      ['3,4', 3],
      ['4/5', 4],
      ['2 stars', 2],
      ['★★★☆☆', 3],
      ['Three', 3],
    ];
    for (const [input, want] of cases) expect(parseLooseRating(input, 'f')).toBe(want);
    expect(() => parseLooseRating('', 'f')).toThrow('missing rating');
    expect(() => parseLooseRating('9', 'f')).toThrow(/from 1 to 5, got 9/);
    expect(() => parseLooseRating('great', 'f')).toThrow(
      'must be a rating from 1 to 5 (5, 4.5, 4/5, 5 stars, ★★★★☆ or five), got "great"',
    );
    expect(() => parseLooseRating('great', 'f')).not.toThrow(/ONE, TWO/);
  });
});

describe('parseDateTime', () => {
  it('normalises RFC 3339 instants with any offset to UTC', () => {
    const c = ctx();
    expect(parseDateTime('2024-03-02T16:41:07.123456Z', 'f', c)).toBe('2024-03-02T16:41:07.123Z');
    expect(parseDateTime('2024-03-02T10:00:00-0600', 'f', c)).toBe('2024-03-02T16:00:00.000Z');
    expect(c.local).toBe(0);
  });

  it('reads dates without offset in the business time zone (noon for a bare date)', () => {
    const c = ctx();
    expect(parseDateTime('2024-07-04 09:30', 'f', c)).toBe('2024-07-04T14:30:00.000Z');
    expect(parseDateTime('2024-01-15', 'f', c)).toBe('2024-01-15T18:00:00.000Z');
    expect(parseDateTime('7/4/2024 9:30 PM', 'f', c)).toBe('2024-07-05T02:30:00.000Z');
    expect(parseDateTime('12/1/2024 12:05 AM', 'f', c)).toBe('2024-12-01T06:05:00.000Z');
    expect(parseDateTime('2024/07/04', 'f', c)).toBe('2024-07-04T17:00:00.000Z');
    expect(c.local).toBe(5);
  });

  it('rejects impossible and unreadable dates with a clear reason', () => {
    expect(() => parseDateTime('2024-02-30T10:00:00Z', 'd', ctx())).toThrow(
      /"2024-02-30T10:00:00Z" is not a real calendar date/,
    );
    expect(() => parseDateTime('2/30/2023', 'd', ctx())).toThrow(/not a real calendar date/);
    expect(() => parseDateTime('13/05/2024', 'd', ctx())).toThrow(/not a real calendar date/);
    expect(() => parseDateTime('last Tuesday', 'd', ctx())).toThrow(/is not a date/);
    expect(() => parseDateTime('', 'd', ctx())).toThrow('missing date');
  });
});

describe('parseDepartment and splitNames', () => {
  it('maps DealerRater departments and visit types', () => {
    const cases: [string, string | null][] = [
      ['SALES', 'sales'],
      ['SALES_NEW', 'sales-new'],
      ['SALES VISIT - USED', 'sales-used'],
      ['SERVICE VISIT', 'service'],
      ['LEASE_NEW', 'lease'],
      ['Body Shop', 'body-shop'],
      ['Car wash', 'other'],
      ['', null],
    ];
    for (const [input, want] of cases) expect(parseDepartment(input)).toBe(want);
  });

  it('splits free-text employee names', () => {
    expect(splitNames('Tristan, Brandon and Taylor / Mike & Ana')).toEqual([
      'Tristan',
      'Brandon',
      'Taylor',
      'Mike',
      'Ana',
    ]);
    expect(splitNames('  ')).toEqual([]);
    expect(splitNames('the whole team, N/A, Everyone, Mary-Jo O’Neil')).toEqual(['Mary-Jo O’Neil']);
  });
});
