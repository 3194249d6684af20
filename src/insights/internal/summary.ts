import type { AspectInsight, Insights } from '../schema.js';

const pct = (x: number) => `${Math.round(x * 100)}%`;

function statement(a: AspectInsight): string {
  return `${a.name}: ${a.mentions} reviews mention it, ${pct(a.positive / a.mentions)} positively and ${pct((a.negative + a.mixed) / a.mentions)} with a complaint.`;
}

/**
 * An editorial summary built only from the measured figures: the best- and worst-rated aspects
 * that enough reviews mention, with quotes, and the significant recent changes.
 */
export function computeSummary(
  aspects: readonly AspectInsight[],
  changes: Insights['changes'],
  ownerResponses: Insights['ownerResponses'],
  reviewCount: number,
): Insights['summary'] {
  const minMentions = Math.max(5, Math.round(reviewCount * 0.02));
  const rated = aspects.filter(
    (a) => a.id !== 'overall' && a.mentions >= minMentions && a.score !== null,
  );
  const byScore = [...rated].sort((a, b) => b.score! - a.score! || b.mentions - a.mentions);
  const strengths = byScore.filter((a) => a.score! > 0.3).slice(0, 3);
  const weaknesses = [...rated]
    .sort(
      (a, b) =>
        (b.negative + b.mixed) / b.mentions - (a.negative + a.mixed) / a.mentions ||
        b.mentions - a.mentions,
    )
    .filter((a) => !strengths.includes(a) && (a.negative + a.mixed) / a.mentions >= 0.2)
    .slice(0, 3);
  const recent = changes.map((c) => ({
    aspect: c.aspect,
    statement: `${c.name} got ${c.direction}: complaints went from ${pct(c.before.negativeShare)} of ${c.before.mentions} mentions (${c.before.from} to ${c.before.to}) to ${pct(c.recent.negativeShare)} of ${c.recent.mentions} in the last 90 days (${c.test.name}, p = ${c.test.pValue}).`,
  }));
  const parts: string[] = [];
  if (strengths.length)
    parts.push(
      `Customers praise most: ${strengths.map((a) => `${a.name.toLowerCase()} (${pct(a.positive / a.mentions)} positive of ${a.mentions})`).join(', ')}.`,
    );
  if (weaknesses.length)
    parts.push(
      `Most complaints concern ${weaknesses.map((a) => `${a.name.toLowerCase()} (${pct((a.negative + a.mixed) / a.mentions)} of ${a.mentions})`).join(', ')}.`,
    );
  if (recent.length) parts.push(...recent.map((r) => r.statement));
  else parts.push('No aspect changed significantly in the last 90 days.');
  if (ownerResponses.rate !== null) {
    parts.push(
      `The business answered ${pct(ownerResponses.rate)} of reviews${ownerResponses.medianResponseHours !== null ? `, typically within ${ownerResponses.medianResponseHours} hours` : ''}.`,
    );
  }
  return {
    text: reviewCount === 0 ? 'There are no reviews yet.' : parts.join(' '),
    strengths: strengths.map((a) => ({
      aspect: a.id,
      statement: statement(a),
      evidence: a.evidence.positive.slice(0, 2),
    })),
    weaknesses: weaknesses.map((a) => ({
      aspect: a.id,
      statement: statement(a),
      evidence: a.evidence.negative.slice(0, 2),
    })),
    recent,
  };
}
