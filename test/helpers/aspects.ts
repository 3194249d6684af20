import type { AspectInsight } from '../../src/insights/schema.js';

/**
 * An aspect of `/insights.json` with these counts (positive, negative, neutral, mixed), its
 * mentions and score as `computeAspects` gives them (the score rounded to three places), no trend.
 */
export function aspectInsight(
  id: string,
  name: string,
  [positive, negative, neutral, mixed]: [number, number, number, number],
  evidence: AspectInsight['evidence'] = { positive: [], negative: [], neutral: [] },
): AspectInsight {
  const mentions = positive + negative + neutral + mixed;
  return {
    id,
    name,
    mentions,
    positive,
    negative,
    neutral,
    mixed,
    score: mentions ? Math.round(((positive - negative) / mentions) * 1000) / 1000 : null,
    trend: [],
    evidence,
  };
}
