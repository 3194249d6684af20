import type { AspectIndexBuilder } from '../../reviews/aspect-index.js';
import type { Polarity } from '../analyzer.js';
import type { AspectInsight } from '../schema.js';
import type { PreparedReview } from './prepare.js';
import { ASPECT_EVIDENCE_MIN_CONFIDENCE, combine, sentenceCandidate, Tally } from './tally.js';

export interface Category {
  id: string;
  name: string;
}

/** The months (`YYYY-MM`) of the trend: the last `count` months up to the newest review. */
export function trendMonths(newestDate: string | undefined, count: number): string[] {
  if (!newestDate) return [];
  let y = Number(newestDate.slice(0, 4));
  let m = Number(newestDate.slice(5, 7));
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    out.unshift(`${y}-${String(m).padStart(2, '0')}`);
    m--;
    if (m === 0) {
      m = 12;
      y--;
    }
  }
  return out;
}

/**
 * Per aspect: how many reviews speak of it positively, negatively, neutrally or both (each review
 * counted once per aspect, from the polarities of its sentences about it), a score, a monthly
 * trend and verbatim evidence per polarity. With `positions`, each review's polarity on each aspect
 * (the one counted) also goes to the lists the search's `aspect` and `polarity` filters read.
 */
export function computeAspects(
  prepared: readonly PreparedReview[],
  categories: readonly Category[],
  months: readonly string[],
  positions?: AspectIndexBuilder,
): AspectInsight[] {
  const tallies = new Map(categories.map((c) => [c.id, new Tally(ASPECT_EVIDENCE_MIN_CONFIDENCE)]));
  const monthly = new Map(
    categories.map((c) => [c.id, new Map(months.map((m) => [m, new Tally()]))]),
  );
  for (const p of prepared) {
    const perAspect = new Map<string, Polarity[]>();
    for (const s of p.sentences) {
      for (const a of s.aspects) {
        const tally = tallies.get(a.category);
        if (!tally) continue;
        const list = perAspect.get(a.category) ?? [];
        list.push(a.polarity);
        perAspect.set(a.category, list);
        tally.offer(sentenceCandidate(p, s, a.polarity, a.confidence));
      }
    }
    const month = p.review.date.slice(0, 7);
    for (const [category, polarities] of perAspect) {
      const polarity = combine(polarities);
      tallies.get(category)!.add(polarity);
      monthly.get(category)!.get(month)?.add(polarity);
      positions?.add(p.order, category, polarity);
    }
  }
  return categories.map((c) => {
    const t = tallies.get(c.id)!;
    return {
      id: c.id,
      name: c.name,
      mentions: t.mentions,
      ...t.sentiment(),
      trend: months.map((month) => {
        const mt = monthly.get(c.id)!.get(month)!;
        return { month, mentions: mt.mentions, ...mt.sentiment() };
      }),
      evidence: t.evidence(),
    };
  });
}
