import type { AspectInsight, Insights } from '../schema.js';

const pct = (x: number) => `${Math.round(x * 100)}%`;

function statement(a: AspectInsight): string {
  return `${a.name}: ${a.mentions} reviews mention it, ${pct(a.positive / a.mentions)} positively and ${pct((a.negative + a.mixed) / a.mentions)} with a complaint.`;
}

/**
 * The lower end of the 95 % Wilson score interval of the share of an aspect's reviews that praise
 * it: the praise the counts can vouch for. Strengths are ranked by it rather than by score, so that
 * a hair of score on a few dozen reviews does not outrank the same praise on ten times as many
 * (E. B. Wilson, 1927; the usual way to rank by rating with unequal counts).
 */
export function praiseLowerBound(a: AspectInsight): number {
  if (a.mentions === 0) return 0;
  const z = 1.96;
  const n = a.mentions;
  const p = a.positive / n;
  const spread = z * Math.sqrt((p * (1 - p) + (z * z) / (4 * n)) / n);
  return (p + (z * z) / (2 * n) - spread) / (1 + (z * z) / n);
}

const byPraise = (a: AspectInsight, b: AspectInsight) =>
  praiseLowerBound(b) - praiseLowerBound(a) || b.mentions - a.mentions;

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
 * `Most complaints concern price and value (7 of the 12 reviews that mention it complain),
 * follow-up (4 of 10), wait time (2 of 10); wait time has the highest share of complaints.`
 */
function complaintsSentence(weaknesses: readonly AspectInsight[]): string {
  const listed = weaknesses
    .map(
      (a, i) =>
        `${a.name.toLowerCase()} (${complaints(a)} of ${i === 0 ? 'the ' : ''}${a.mentions}${i === 0 ? ' reviews that mention it complain' : ''})`,
    )
    .join(', ');
  const first = [...weaknesses].sort(byShare)[0]!;
  const note =
    first === weaknesses[0]
      ? ''
      : `; ${first.name.toLowerCase()} has the highest share of complaints`;
  return `Most complaints concern ${listed}${note}.`;
}

/** `Customers praise most: cleanliness (10 of the 10 reviews that mention it), staff (40 of 42).` */
function praiseSentence(strengths: readonly AspectInsight[]): string {
  const listed = strengths
    .map(
      (a, i) =>
        `${a.name.toLowerCase()} (${a.positive} of ${i === 0 ? 'the ' : ''}${a.mentions}${i === 0 ? ' reviews that mention it' : ''})`,
    )
    .join(', ');
  return `Customers praise most: ${listed}.`;
}

/** `Lately, wait time got worse: 40% of the 20 reviews ... complained, against 10% of 20 ...` */
function changeStatement(c: Insights['changes'][number]): string {
  return `Lately, ${c.name.toLowerCase()} got ${c.direction}: ${pct(c.recent.negativeShare)} of the ${c.recent.mentions} reviews that mentioned it in the last three months complained, against ${pct(c.before.negativeShare)} of ${c.before.mentions} in the year before, a difference too large to be chance.`;
}

/** How far to trust the figures, in one sentence (the method is in docs/insights.md). */
function howSure(reviewCount: number, minMentions: number): string {
  return `How sure: these figures are read automatically from ${reviewCount} ${reviewCount === 1 ? 'review' : 'reviews'}; the reading misses some mentions, so counts are lower bounds, and topics fewer than ${Math.max(20, minMentions)} reviews mention are indications only.`;
}

/**
 * An editorial summary built only from the measured figures, in the words a service manager reads
 * in half a minute: what customers praise, what they complain about, what changed lately, how the
 * business answers and how sure the figures are, each claim with its count (the test behind a
 * change is in `changes[]`; the method in docs/insights.md).
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
  const strengths = rated
    .filter((a) => a.score! > 0.3)
    .sort(byPraise)
    .slice(0, 3);
  const weaknesses = complained(rated, strengths);
  const recent = changes.map((c) => ({ aspect: c.aspect, statement: changeStatement(c) }));
  const parts: string[] = [];
  if (strengths.length) parts.push(praiseSentence(strengths));
  if (weaknesses.length) parts.push(complaintsSentence(weaknesses));
  if (recent.length) parts.push(...recent.map((r) => r.statement));
  else
    parts.push(
      'Lately, no clear change: no topic moved more than chance explains (last three months against the year before).',
    );
  if (ownerResponses.rate !== null) {
    parts.push(
      `The business answered ${pct(ownerResponses.rate)} of reviews${ownerResponses.medianResponseHours !== null ? `, typically within ${ownerResponses.medianResponseHours} hours` : ''}.`,
    );
  }
  parts.push(howSure(reviewCount, minMentions));
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
