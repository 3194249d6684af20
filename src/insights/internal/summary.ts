import type { AspectInsight, Insights } from '../schema.js';

const pct = (x: number) => `${Math.round(x * 100)}%`;

function statement(a: AspectInsight): string {
  return `${a.name}: ${a.mentions} reviews mention it, ${pct(a.positive / a.mentions)} positively and ${pct((a.negative + a.mixed) / a.mentions)} with a complaint.`;
}

const complaints = (a: AspectInsight) => a.negative + a.mixed;
const share = (a: AspectInsight) => complaints(a) / a.mentions;
const byCount = (a: AspectInsight, b: AspectInsight) =>
  complaints(b) - complaints(a) || share(b) - share(a) || b.mentions - a.mentions;
const byShare = (a: AspectInsight, b: AspectInsight) =>
  share(b) - share(a) || complaints(b) - complaints(a);

/**
 * The aspects complained about, ranked by count as well as share: the three with the most
 * complaints and the three with the highest share of them (at least 20 %, strengths aside), in
 * order of count. The aspect with the most complaints is always named, whatever its share: a
 * common aspect (price) may gather the most complaints at a modest share.
 */
function complained(
  rated: readonly AspectInsight[],
  strengths: readonly AspectInsight[],
): AspectInsight[] {
  const counted = rated.filter((a) => complaints(a) > 0);
  const most = [...counted].sort(byCount);
  const notable = counted.filter((a) => !strengths.includes(a) && share(a) >= 0.2);
  const picked = new Set([
    ...most.slice(0, 1),
    ...most.filter((a) => notable.includes(a)).slice(0, 2),
    ...[...notable].sort(byShare).slice(0, 3),
  ]);
  return [...picked].sort(byCount);
}

/**
 * `Most complaints concern price (31 complaints, 18% of 172 mentions), wait time (24, 44% of 55)
 * ...; by share, wait time comes first.`
 */
function complaintsSentence(weaknesses: readonly AspectInsight[]): string {
  const listed = weaknesses
    .map(
      (a, i) =>
        `${a.name.toLowerCase()} (${complaints(a)}${i === 0 ? ' complaints' : ''}, ${pct(share(a))} of ${a.mentions}${i === 0 ? ' mentions' : ''})`,
    )
    .join(', ');
  const first = [...weaknesses].sort(byShare)[0]!;
  const note = first === weaknesses[0] ? '' : `; by share, ${first.name.toLowerCase()} comes first`;
  return `Most complaints concern ${listed}${note}.`;
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
  const weaknesses = complained(rated, strengths);
  const recent = changes.map((c) => ({
    aspect: c.aspect,
    statement: `${c.name} got ${c.direction}: complaints went from ${pct(c.before.negativeShare)} of ${c.before.mentions} mentions (${c.before.from} to ${c.before.to}) to ${pct(c.recent.negativeShare)} of ${c.recent.mentions} in the last 90 days (${c.test.name}, p = ${c.test.pValue}).`,
  }));
  const parts: string[] = [];
  if (strengths.length)
    parts.push(
      `Customers praise most: ${strengths.map((a) => `${a.name.toLowerCase()} (${pct(a.positive / a.mentions)} positive of ${a.mentions})`).join(', ')}.`,
    );
  if (weaknesses.length) parts.push(complaintsSentence(weaknesses));
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
