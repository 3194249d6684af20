import { describe, expect, it } from 'vitest';
import { localDate, normalizeInstant } from '../../src/domain/dates.js';
import { dayNumber, formatLocal, isoDay, weekday } from './local-time.js';
import { createRng } from './prng.js';
import { EASTERN } from './review-row.js';
import { postingTimes } from './timeline.js';

/** The offset the runtime's time-zone database gives New York at an instant, as `-04:00`. */
function intlOffset(instant: string): string {
  const name = new Intl.DateTimeFormat('en-US', {
    timeZone: 'America/New_York',
    timeZoneName: 'longOffset',
  })
    .formatToParts(new Date(instant))
    .find((p) => p.type === 'timeZoneName')!.value;
  return name.replace('GMT', '');
}

describe('the posting timeline', () => {
  it('stays in order in UTC across the daylight-saving changes, even at a million reviews', () => {
    const changes = ['2024-03-10', '2024-11-03', '2025-03-09', '2025-11-02', '2026-03-08'].map(
      dayNumber,
    );
    let prev = '';
    let checked = 0;
    for (const t of postingTimes(createRng(1), 1_000_000)) {
      if (!changes.some((d) => Math.abs(t.day - d) <= 1)) continue;
      const instant = normalizeInstant(formatLocal(EASTERN, t))!;
      expect(instant >= prev, instant).toBe(true);
      prev = instant;
      checked++;
    }
    expect(checked).toBeGreaterThan(5000);
  });
});

describe('formatLocal (US Eastern)', () => {
  it('agrees with the time-zone database every three hours over the sample window', () => {
    for (let day = dayNumber('2023-06-01'); day <= dayNumber('2026-11-30'); day++) {
      for (let second = 0; second < 86_400; second += 3 * 3600 + 17) {
        if (second >= 2 * 3600 && second < 3 * 3600) continue; // the skipped and repeated hours
        const text = formatLocal(EASTERN, { day, second });
        const instant = normalizeInstant(text)!;
        expect(text.slice(-6)).toBe(intlOffset(instant));
        expect(localDate(instant, 'America/New_York')).toBe(isoDay(day));
      }
    }
  });

  it('switches on the second Sunday of March and the first Sunday of November', () => {
    const spring = dayNumber('2025-03-09');
    expect(formatLocal(EASTERN, { day: spring, second: 3600 })).toBe('2025-03-09T01:00:00-05:00');
    expect(formatLocal(EASTERN, { day: spring, second: 2.5 * 3600 })).toBe(
      '2025-03-09T03:30:00-04:00',
    );
    const fall = dayNumber('2025-11-02');
    expect(formatLocal(EASTERN, { day: fall, second: 3600 })).toBe('2025-11-02T01:00:00-04:00');
    expect(formatLocal(EASTERN, { day: fall, second: 3 * 3600 })).toBe('2025-11-02T03:00:00-05:00');
  });

  it('numbers days and weekdays like the calendar', () => {
    expect(isoDay(dayNumber('2026-10-31'))).toBe('2026-10-31');
    expect(weekday(dayNumber('2026-10-31'))).toBe(6); // a Saturday
  });
});
