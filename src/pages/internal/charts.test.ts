import { describe, expect, it } from 'vitest';
import { MIN_MONTH_MENTIONS, sparkline, type TrendPoint } from './charts.js';

/** A month of the trend with `positive` of `mentions` positive (the rest negative). */
const month = (m: string, mentions: number, positive: number): TrendPoint => ({
  month: m,
  mentions,
  positive,
  negative: mentions - positive,
  neutral: 0,
  mixed: 0,
});

describe('sparkline', () => {
  const trend = [
    month('2025-01', 0, 0),
    month('2025-02', 10, 5),
    month('2025-03', 0, 0),
    month('2025-04', 10, 10),
    month('2025-05', 10, 0),
    month('2025-06', 1, 1),
  ];
  const svg = sparkline(trend).value;

  it('spaces the months by date from the first month with a mention, leaving gaps for empty months', () => {
    // February to June: five calendar months, at 0, 25, 50, 75 and 100; March has no point.
    expect(svg).not.toContain('Jan 2025');
    // February stands alone between gaps: a dot, not a line.
    expect(svg).toContain('<path class="dot" d="M0.0,15.0h0" />');
    // April and May are joined: the line breaks at the empty March.
    expect(svg).toContain('<polyline points="50.0,1.0 75.0,29.0" />');
    expect(svg.match(/<polyline/g)).toHaveLength(1);
    expect(svg).not.toMatch(/(^|[ "M])25\.0,/);
  });

  it(`draws months with fewer than ${MIN_MONTH_MENTIONS} mentions as faint dots, out of the line and the figures`, () => {
    expect(svg).toContain('<path class="few" d="M100.0,1.0h0" />');
    expect(svg).toContain(
      'aria-label="Share of positive mentions by month, Feb 2025 to Jun 2025: 50% in Feb 2025, 0% in May 2025; lowest 0% (May 2025), highest 100% (Apr 2025). Months with fewer than 3 mentions are not counted."',
    );
  });

  it('writes its title and the first and last months on rows of their own', () => {
    expect(svg).toMatch(/<figcaption aria-hidden="true">Positive mentions by month<\/figcaption>/);
    expect(svg).toMatch(
      /<p class="spark-axis" aria-hidden="true">\s*<span>Feb 2025<\/span><span>Jun 2025<\/span>\s*<\/p>/,
    );
  });

  it('draws nothing when fewer than two months have enough mentions to count', () => {
    expect(sparkline([month('2025-01', 10, 5), month('2025-02', 2, 1)]).value).toBe('');
    expect(sparkline([month('2025-01', 0, 0)]).value).toBe('');
  });
});
