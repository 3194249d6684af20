import { formatMonth, percent } from './format.js';
import { html, raw, type Html } from './html.js';

/** Counts of a sentiment: positive, mixed, neutral and negative mentions. */
export interface Shares {
  positive: number;
  mixed: number;
  neutral: number;
  negative: number;
}

const PARTS = [
  ['positive', 'pos', 'Positive'],
  ['mixed', 'mix', 'Mixed'],
  ['neutral', 'neu', 'Neutral'],
  ['negative', 'neg', 'Negative'],
] as const;

/** The shares of `s` in words (`63% positive, 5% mixed, 0% neutral, 32% negative`). */
export function sharesText(s: Shares): string {
  const total = s.positive + s.mixed + s.neutral + s.negative;
  return PARTS.map(([key, , label]) => `${percent(s[key], total)}% ${label.toLowerCase()}`).join(
    ', ',
  );
}

/**
 * A stacked bar of the positive, mixed, neutral and negative shares, drawn as SVG (no inline
 * style, so the Content-Security-Policy needs none), with the shares as its accessible name.
 */
export function sentimentBar(s: Shares): Html {
  const total = s.positive + s.mixed + s.neutral + s.negative;
  let x = 0;
  const rects = PARTS.map(([key, cls]) => {
    const w = total === 0 ? 0 : (s[key] / total) * 100;
    const rect =
      w > 0
        ? html`<rect class="${cls}" x="${x.toFixed(2)}" width="${w.toFixed(2)}" height="10" />`
        : '';
    x += w;
    return rect;
  });
  return html`<svg
    class="bar"
    viewBox="0 0 100 10"
    preserveAspectRatio="none"
    role="img"
    aria-label="${sharesText(s)}"
  >
    ${total === 0 ? raw('<rect class="neu" width="100" height="10"/>') : rects}
  </svg>`;
}

/** The colour key of the bars. */
export const LEGEND = raw(
  `<ul class="legend" aria-label="Colour key">${PARTS.map(
    ([, cls, label]) =>
      `<li><svg viewBox="0 0 10 10" aria-hidden="true"><rect class="${cls}" width="10" height="10" rx="2"/></svg>${label}</li>`,
  ).join('')}</ul>`,
);

export interface TrendPoint extends Shares {
  month: string;
  mentions: number;
}

/**
 * The monthly share of positive mentions as a sparkline (inline SVG), with a 50% guide line and
 * an accessible name that states the first, last, lowest and highest months. Months without
 * mentions are left out.
 */
export function sparkline(trend: readonly TrendPoint[]): Html {
  const points = trend.filter((p) => p.mentions > 0);
  if (points.length < 2) return raw('');
  const share = (p: TrendPoint) => p.positive / p.mentions;
  const coords = points
    .map(
      (p, i) =>
        `${((i / (points.length - 1)) * 100).toFixed(1)},${(30 - share(p) * 28 - 1).toFixed(1)}`,
    )
    .join(' ');
  const first = points[0]!;
  const last = points[points.length - 1]!;
  const low = points.reduce((a, b) => (share(b) < share(a) ? b : a));
  const high = points.reduce((a, b) => (share(b) > share(a) ? b : a));
  const pct = (p: TrendPoint) => `${Math.round(share(p) * 100)}%`;
  const label = `Positive share by month: ${pct(first)} in ${formatMonth(first.month)}, ${pct(last)} in ${formatMonth(last.month)}; lowest ${pct(low)} (${formatMonth(low.month)}), highest ${pct(high)} (${formatMonth(high.month)})`;
  return html`<svg
    class="spark"
    viewBox="0 0 100 30"
    preserveAspectRatio="none"
    role="img"
    aria-label="${label}"
  >
    <line x1="0" y1="15" x2="100" y2="15" />
    <polyline points="${coords}" />
  </svg><p class="spark-caption" aria-hidden="true"><span>${formatMonth(first.month)}</span><span>positive share by month</span><span>${formatMonth(last.month)}</span></p>`;
}
