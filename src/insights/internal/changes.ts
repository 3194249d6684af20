import type { Polarity } from '../analyzer.js';
import type { Insights } from '../schema.js';
import type { Category } from './aspects.js';
import type { PreparedReview } from './prepare.js';
import { combine } from './tally.js';

export const RECENT_DAYS = 90;
const BEFORE_DAYS = 365;
const ALPHA = 0.05;
/**
 * Mentions each period needs before its share is compared: the floor under which the summary
 * calls a topic an indication only. It also keeps the z-test's normal approximation honest (at
 * least five expected complaints and five expected others for any share from 25 to 75 %).
 */
const MIN_MENTIONS = 20;

/** Adds days to a YYYY-MM-DD date. */
export function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

/** Standard normal cumulative distribution (Abramowitz-Stegun 7.1.26 erf approximation). */
function normalCdf(x: number): number {
  const t = 1 / (1 + (0.3275911 * Math.abs(x)) / Math.SQRT2);
  const erf =
    1 -
    ((((1.061405429 * t - 1.453152027) * t + 1.421413741) * t - 0.284496736) * t + 0.254829592) *
      t *
      Math.exp(-(x * x) / 2);
  return x >= 0 ? (1 + erf) / 2 : (1 - erf) / 2;
}

/** Two-sided two-proportion z-test of k1/n1 against k2/n2 (pooled standard error). */
export function twoProportionTest(
  k1: number,
  n1: number,
  k2: number,
  n2: number,
): { z: number; pValue: number } {
  const pooled = (k1 + k2) / (n1 + n2);
  const se = Math.sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n2));
  if (se === 0) return { z: 0, pValue: 1 };
  const z = (k1 / n1 - k2 / n2) / se;
  return { z, pValue: 2 * (1 - normalCdf(Math.abs(z))) };
}

/**
 * Holm's step-down adjustment of p-values for testing them all at once: the i-th smallest is
 * multiplied by (m - i) and made no smaller than the one before, capped at 1. Rejecting where the
 * adjusted value is under alpha keeps the chance of any false claim among the m at alpha.
 */
export function holmAdjust(pValues: readonly number[]): number[] {
  const m = pValues.length;
  const order = pValues.map((p, i) => [p, i] as const).sort((a, b) => a[0] - b[0]);
  const out = new Array<number>(m);
  let running = 0;
  order.forEach(([p, i], rank) => {
    running = Math.max(running, Math.min(1, (m - rank) * p));
    out[i] = running;
  });
  return out;
}

/**
 * The two periods a change compares, up to the newest review: the last 90 days (from
 * `recentFrom`) and the 365 days before them (`beforeFrom` to `beforeTo`), YYYY-MM-DD.
 */
export function changeWindows(newestDate: string): {
  recentFrom: string;
  beforeFrom: string;
  beforeTo: string;
} {
  const recentFrom = addDays(newestDate, -(RECENT_DAYS - 1));
  return {
    recentFrom,
    beforeFrom: addDays(recentFrom, -BEFORE_DAYS),
    beforeTo: addDays(recentFrom, -1),
  };
}

const round = (x: number, digits: number) => Math.round(x * 10 ** digits) / 10 ** digits;

/**
 * Aspects whose share of negative mentions in the last 90 days (up to the newest review) differs
 * significantly from the 365 days before: a two-sided two-proportion z-test for each aspect with
 * at least 20 mentions on each side, and Holm's adjustment across those aspects at alpha 0.05, so
 * that the chance of claiming any change that is not there stays at 5 % however many are tested.
 */
export function computeChanges(
  prepared: readonly PreparedReview[],
  categories: readonly Category[],
  newestDate: string | undefined,
): Insights['changes'] {
  if (!newestDate) return [];
  const { recentFrom, beforeFrom, beforeTo } = changeWindows(newestDate);
  const counts = new Map(categories.map((c) => [c.id, { n1: 0, k1: 0, n2: 0, k2: 0 }]));
  for (const p of prepared) {
    const date = p.review.date;
    const side = date >= recentFrom ? 1 : date >= beforeFrom ? 2 : 0;
    if (side === 0) continue;
    const perAspect = new Map<string, Polarity[]>();
    for (const s of p.sentences) {
      for (const a of s.aspects) {
        const list = perAspect.get(a.category);
        if (list) list.push(a.polarity);
        else perAspect.set(a.category, [a.polarity]);
      }
    }
    for (const [category, polarities] of perAspect) {
      const c = counts.get(category);
      if (!c) continue;
      const combined = combine(polarities);
      const negative = combined === 'negative' || combined === 'mixed' ? 1 : 0;
      if (side === 1) {
        c.n1++;
        c.k1 += negative;
      } else {
        c.n2++;
        c.k2 += negative;
      }
    }
  }
  const tested = categories.flatMap((cat) => {
    const { n1, k1, n2, k2 } = counts.get(cat.id)!;
    if (n1 < MIN_MENTIONS || n2 < MIN_MENTIONS) return [];
    return [{ cat, n1, k1, n2, k2, ...twoProportionTest(k1, n1, k2, n2) }];
  });
  const adjusted = holmAdjust(tested.map((t) => t.pValue));
  const out: Insights['changes'] = [];
  tested.forEach(({ cat, n1, k1, n2, k2, z, pValue }, i) => {
    if (adjusted[i]! >= ALPHA) return;
    out.push({
      aspect: cat.id,
      name: cat.name,
      direction: k1 / n1 > k2 / n2 ? 'worse' : 'better',
      metric: 'negativeShare',
      recent: { from: recentFrom, to: newestDate, mentions: n1, negativeShare: round(k1 / n1, 3) },
      before: { from: beforeFrom, to: beforeTo, mentions: n2, negativeShare: round(k2 / n2, 3) },
      test: {
        name: 'two-proportion z-test',
        z: round(z, 3),
        pValue: round(pValue, 5),
        alpha: ALPHA,
        correction: 'holm',
        tested: tested.length,
        adjustedPValue: round(adjusted[i]!, 5),
      },
    });
  });
  return out.sort((a, b) => a.test.pValue - b.test.pValue);
}
