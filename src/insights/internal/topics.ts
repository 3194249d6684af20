import type { Polarity } from '../analyzer.js';
import type { EvidenceByPolarity, Sentiment } from '../schema.js';
import { sentencePolarity, type PreparedReview } from './prepare.js';
import { combine, ratingPolarity, Tally } from './tally.js';
import { phraseMatcher } from './text-match.js';

/** Recurring themes of dealership reviews that the aspect taxonomy does not name. */
export const THEMES: { id: string; name: string; phrases: string[] }[] = [
  {
    id: 'loaner-car',
    name: 'Loaner cars',
    phrases: [
      'loaner',
      'loaner car',
      'loaner vehicle',
      'courtesy car',
      'rental car',
      'rental',
      'carro de cortesía',
      'carro prestado',
    ],
  },
  {
    id: 'shuttle',
    name: 'Shuttle service',
    phrases: ['shuttle', 'shuttle service', 'shuttle driver', 'ride home', 'ride back'],
  },
  { id: 'recall', name: 'Recalls', phrases: ['recall', 'recall work', 'retiro'] },
  {
    id: 'warranty',
    name: 'Warranty work',
    phrases: ['warranty', 'extended warranty', 'under warranty', 'garantía'],
  },
  { id: 'trade-in', name: 'Trade-ins', phrases: ['trade-in', 'trade in', 'traded in', 'my trade'] },
  { id: 'test-drive', name: 'Test drives', phrases: ['test drive', 'test drove', 'test-drive'] },
  {
    id: 'refreshments',
    name: 'Coffee and refreshments',
    phrases: ['coffee', 'snacks', 'popcorn', 'donuts', 'refreshments', 'water bottle', 'café'],
  },
  { id: 'wifi', name: 'Wi-Fi', phrases: ['wifi', 'wi-fi', 'internet'] },
  {
    id: 'parts-availability',
    name: 'Parts availability',
    phrases: [
      'backorder',
      'back order',
      'backordered',
      'on order',
      'waiting on parts',
      'waiting for parts',
      'part was not in stock',
      'parts in stock',
    ],
  },
  {
    id: 'check-engine-light',
    name: 'Check-engine light',
    phrases: ['check engine light', 'check engine', 'engine light'],
  },
  {
    id: 'paperwork',
    name: 'Paperwork',
    phrases: ['paperwork', 'documents', 'title', 'registration', 'papeleo'],
  },
  {
    id: 'online-booking',
    name: 'Online booking',
    phrases: [
      'online booking',
      'booked online',
      'online scheduling',
      'scheduled online',
      'app',
      'text updates',
      'text message',
    ],
  },
];

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
  const out: TopicInsight[] = [];
  for (const theme of THEMES) {
    const re = phraseMatcher(theme.phrases);
    const tally = new Tally();
    let recent = 0;
    for (const p of prepared) {
      const polarities: Polarity[] = [];
      for (const s of p.sentences) {
        if (!re.test(s.text)) continue;
        const polarity = sentencePolarity(s) ?? 'neutral';
        polarities.push(polarity);
        const confidence = s.aspects.length ? Math.max(...s.aspects.map((a) => a.confidence)) : 0.5;
        tally.offer({ reviewId: p.review.id, order: p.order, quote: s.text, polarity, confidence });
      }
      if (polarities.length === 0) continue;
      const opinion = polarities.every((x) => x === 'neutral')
        ? ratingPolarity(p.review.reviewRating.ratingValue)
        : combine(polarities);
      tally.add(opinion);
      if (recentFrom !== null && p.review.date >= recentFrom) recent++;
    }
    if (tally.mentions === 0) continue;
    out.push({
      id: theme.id,
      name: theme.name,
      mentions: tally.mentions,
      recentMentions: recent,
      ...tally.sentiment(),
      evidence: tally.evidence(),
    });
  }
  return out.sort((a, b) => b.mentions - a.mentions || a.id.localeCompare(b.id));
}
