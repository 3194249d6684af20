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

/** The shares of `s` in words, leaving out those of nobody (`63% positive, 5% mixed, 32% negative`). */
export function sharesText(s: Shares): string {
  const total = s.positive + s.mixed + s.neutral + s.negative;
  if (total === 0) return 'No mentions';
  return PARTS.filter(([key]) => s[key] > 0)
    .map(([key, , label]) => `${percent(s[key], total)}% ${label.toLowerCase()}`)
    .join(', ');
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

/** Months with fewer mentions than this are faint dots, kept out of the line and the figures. */
export const MIN_MONTH_MENTIONS = 3;

const f1 = (n: number) => n.toFixed(1);

/**
 * The monthly share of positive mentions as a sparkline (inline SVG), the x axis being time: one
 * step per calendar month from the first month with a mention, so an empty month is a gap in the
 * line, not a month skipped. Months with at least MIN_MONTH_MENTIONS mentions are joined by the
 * line (a lone one is a dot); months with fewer are faint dots, as one or two reviews make a
 * share of 0 or 100% that says little. A 50% guide line; a title above and the first and last
 * months below, on their own rows; an accessible name stating the first, last, lowest and
 * highest of the counted months. Nothing when fewer than two months count.
 */
export function sparkline(trend: readonly TrendPoint[]): Html {
  const start = trend.findIndex((p) => p.mentions > 0);
  if (start < 0) return raw('');
  const months = trend.slice(start);
  const counted = months.filter((p) => p.mentions >= MIN_MONTH_MENTIONS);
  if (counted.length < 2) return raw('');
  const share = (p: TrendPoint) => p.positive / p.mentions;
  const x = (i: number) => (months.length === 1 ? 50 : (i / (months.length - 1)) * 100);
  const y = (p: TrendPoint) => 29 - share(p) * 28;
  const lines: Html[] = [];
  const dots: Html[] = [];
  let run: string[] = [];
  const endRun = () => {
    if (run.length === 1) dots.push(html`<path class="dot" d="M${run[0]!}h0" />`);
    else if (run.length > 1) lines.push(html`<polyline points="${run.join(' ')}" />`);
    run = [];
  };
  months.forEach((p, i) => {
    if (p.mentions >= MIN_MONTH_MENTIONS) {
      run.push(`${f1(x(i))},${f1(y(p))}`);
      return;
    }
    endRun();
    if (p.mentions > 0) dots.push(html`<path class="few" d="M${f1(x(i))},${f1(y(p))}h0" />`);
  });
  endRun();
  const first = counted[0]!;
  const last = counted[counted.length - 1]!;
  const low = counted.reduce((a, b) => (share(b) < share(a) ? b : a));
  const high = counted.reduce((a, b) => (share(b) > share(a) ? b : a));
  const pct = (p: TrendPoint) => `${Math.round(share(p) * 100)}%`;
  const label = `Share of positive mentions by month, ${formatMonth(months[0]!.month)} to ${formatMonth(months[months.length - 1]!.month)}: ${pct(first)} in ${formatMonth(first.month)}, ${pct(last)} in ${formatMonth(last.month)}; lowest ${pct(low)} (${formatMonth(low.month)}), highest ${pct(high)} (${formatMonth(high.month)}). Months with fewer than ${MIN_MONTH_MENTIONS} mentions are not counted.`;
  return html`<figure class="spark">
    <figcaption aria-hidden="true">Positive mentions by month</figcaption>
    <svg viewBox="0 0 100 30" preserveAspectRatio="none" role="img" aria-label="${label}">
      <line x1="0" y1="15" x2="100" y2="15" />${lines}${dots}
    </svg>
    <p class="spark-axis" aria-hidden="true">
      <span>${formatMonth(months[0]!.month)}</span><span>${formatMonth(months[months.length - 1]!.month)}</span>
    </p>
  </figure>`;
}
