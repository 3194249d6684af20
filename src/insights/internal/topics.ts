import type { Polarity } from '../analyzer.js';
import type { EvidenceByPolarity, Sentiment } from '../schema.js';
import { sentencePolarity, type PreparedReview } from './prepare.js';
import { combine, ratingPolarity, sentenceCandidate, Tally } from './tally.js';
import { THEMES } from './themes.js';

export type TopicInsight = Sentiment & {
  id: string;
  name: string;
  mentions: number;
  recentMentions: number;
  evidence: EvidenceByPolarity;
};

/**
 * Each theme: the reviews whose text names it (by its phrases, as whole words), how they speak of
 * it (the aspects of the sentences that name it, else the star rating), how many of those
 * mentions fall in the last 90 days, and verbatim evidence. Themes nobody mentions are left out.
 */
export function topicInsights(
  prepared: readonly PreparedReview[],
  recentFrom: string | null,
): TopicInsight[] {
  const tallies = THEMES.map(() => new Tally());
  const recent = THEMES.map(() => 0);
  const perTheme: Polarity[][] = THEMES.map(() => []);
  for (const p of prepared) {
    let touched = 0;
    for (const s of p.sentences) {
      if (s.themes === 0) continue;
      const polarity = sentencePolarity(s) ?? 'neutral';
      const confidence = s.aspects.length ? Math.max(...s.aspects.map((a) => a.confidence)) : 0.5;
      for (let i = 0; i < THEMES.length; i++) {
        if (!(s.themes & (1 << i))) continue;
        touched |= 1 << i;
        perTheme[i]!.push(polarity);
        tallies[i]!.offer(sentenceCandidate(p, s, polarity, confidence));
      }
    }
    if (touched === 0) continue;
    for (let i = 0; i < THEMES.length; i++) {
      if (!(touched & (1 << i))) continue;
      const polarities = perTheme[i]!;
      tallies[i]!.add(
        polarities.every((x) => x === 'neutral')
          ? ratingPolarity(p.review.reviewRating.ratingValue)
          : combine(polarities),
      );
      if (recentFrom !== null && p.review.date >= recentFrom) recent[i]!++;
      perTheme[i] = [];
    }
  }
  const out: TopicInsight[] = [];
  THEMES.forEach((theme, i) => {
    const tally = tallies[i]!;
    if (tally.mentions === 0) return;
    out.push({
      id: theme.id,
      name: theme.name,
      mentions: tally.mentions,
      recentMentions: recent[i]!,
      ...tally.sentiment(),
      evidence: tally.evidence(),
    });
  });
  return out.sort((a, b) => b.mentions - a.mentions || a.id.localeCompare(b.id));
}
