import { describe, expect, it } from 'vitest';
import { addDays, isCalendarDate, localDate, localToInstant, normalizeInstant } from './dates.js';

describe('calendar dates', () => {
  it.each(['2024-02-29', '2000-02-29', '2023-12-31', '0001-01-01'])('accepts %s', (d) => {
    expect(isCalendarDate(d)).toBe(true);
  });
  it.each([
    '2023-02-29',
    '1900-02-29',
    '2024-02-30',
    '2024-04-31',
    '2024-13-01',
    '2024-00-10',
    '20240101',
    '2024-1-1',
    '',
  ])('rejects %j', (d) => expect(isCalendarDate(d)).toBe(false));
});

describe('instants', () => {
  it('normalises RFC 3339 with offsets to UTC milliseconds', () => {
    expect(normalizeInstant('2024-05-01T09:30:00-05:00')).toBe('2024-05-01T14:30:00.000Z');
    expect(normalizeInstant('2024-05-01T14:30:00.123456Z')).toBe('2024-05-01T14:30:00.123Z');
  });
  it.each([
    '2024-05-01',
    '2024-05-01T14:30:00',
    '2024-02-30T00:00:00Z',
    'yesterday',
    '2024-05-01T25:00:00Z',
  ])('rejects %j', (s) => expect(normalizeInstant(s)).toBeNull());
});

describe('local dates in the business time zone', () => {
  it('keeps a 9 pm review in Chicago on its local day', () => {
    expect(localDate('2024-05-02T02:00:00.000Z', 'America/Chicago')).toBe('2024-05-01');
    expect(localDate('2024-05-02T02:00:00.000Z', 'UTC')).toBe('2024-05-02');
  });
  it('writes years before 1000 with four digits', () => {
    expect(localDate('0005-03-01T12:00:00.000Z', 'UTC')).toBe('0005-03-01');
  });
  it('interprets offset-less times in the zone, across daylight saving changes', () => {
    expect(localToInstant('2024-01-15T09:00:00', 'America/Chicago')).toBe(
      '2024-01-15T15:00:00.000Z',
    );
    expect(localToInstant('2024-07-15T09:00:00', 'America/Chicago')).toBe(
      '2024-07-15T14:00:00.000Z',
    );
    expect(localToInstant('2024-02-30', 'America/Chicago')).toBeNull();
  });
  it.each(['0001-01-01', '0098-03-01T10:00:00', '0099-06-01', '0100-01-01', '1899-12-31'])(
    'keeps the year of the local time %s (years 0 to 99 are not 1900 to 1999)',
    (local) => {
      for (const zone of ['UTC', 'America/Chicago', 'Asia/Tokyo', 'Pacific/Kiritimati']) {
        const instant = localToInstant(local, zone);
        expect(instant).not.toBeNull();
        expect(localDate(instant!, zone)).toBe(local.slice(0, 10));
      }
    },
  );
});

describe('calendar arithmetic', () => {
  it.each([
    ['2024-02-28', 1, '2024-02-29'],
    ['2023-02-28', 1, '2023-03-01'],
    ['2026-12-31', 1, '2027-01-01'],
    ['2027-01-01', -1, '2026-12-31'],
    ['2026-11-25', 2, '2026-11-27'],
  ])('%s plus %i day(s) is %s', (date, days, expected) => {
    expect(addDays(date, days)).toBe(expected);
  });
});
