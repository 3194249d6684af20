import type { Polarity } from '../analyzer.js';
import type { Business } from '../../domain/business.js';
import type { EvidenceByPolarity, Sentiment } from '../schema.js';
import { sentencePolarity, type PreparedReview, type PreparedSentence } from './prepare.js';
import { textArea } from './themes.js';
import { combine, ratingPolarity, sentenceCandidate, Tally } from './tally.js';
import { dict, type ReadonlyDict } from '../../platform/dict.js';

/** DealerRater shows employee ratings from a handful of reviews on; so do we. */
export const MIN_TECHNICIAN_MENTIONS = 3;

type Entity = Sentiment & {
  name: string;
  mentions: number;
  averageRating: number | null;
  evidence: EvidenceByPolarity;
};

/**
 * Tallies a subject mentioned in reviews: review-level polarity from the sentences that name it,
 * or from the star rating when the review names it without an opinion sentence (a tag).
 */
function tallySubject(
  reviews: readonly PreparedReview[],
  names: (s: PreparedSentence) => boolean,
): { tally: Tally; averageRating: number | null } {
  const tally = new Tally();
  let sum = 0;
  for (const p of reviews) {
    sum += p.review.reviewRating.ratingValue;
    const polarities: Polarity[] = [];
    for (const s of p.sentences) {
      if (!names(s)) continue;
      const polarity =
        sentencePolarity(s) ??
        (ratingPolarity(p.review.reviewRating.ratingValue) === 'positive' ? 'positive' : 'neutral');
      polarities.push(polarity);
      const confidence = Math.max(0, ...s.aspects.map((a) => a.confidence));
      tally.offer(sentenceCandidate(p, s, polarity, confidence));
    }
    tally.add(
      polarities.length > 0
        ? combine(polarities)
        : ratingPolarity(p.review.reviewRating.ratingValue),
    );
  }
  return {
    tally,
    averageRating: reviews.length ? Math.round((sum / reviews.length) * 100) / 100 : null,
  };
}

function entity(
  name: string,
  reviews: readonly PreparedReview[],
  names: (s: PreparedSentence) => boolean,
): Entity {
  const { tally, averageRating } = tallySubject(reviews, names);
  return {
    name,
    mentions: reviews.length,
    averageRating,
    ...tally.sentiment(),
    evidence: tally.evidence(),
  };
}

/**
 * Staff with at least MIN_TECHNICIAN_MENTIONS reviews naming them in `mentions.technicians`
 * (so `mentions` equals that count), with the sentiment of the sentences that name them.
 */
export function technicianInsights(
  prepared: readonly PreparedReview[],
  business: Business | null,
): (Entity & { role: string | null })[] {
  const byName = new Map<string, { role: string | null; reviews: PreparedReview[] }>();
  for (const m of business?.staff ?? []) byName.set(m.name, { role: m.role, reviews: [] });
  for (const p of prepared) {
    for (const t of p.review.mentions.technicians) {
      const entry = byName.get(t.name) ?? { role: t.role, reviews: [] };
      entry.reviews.push(p);
      byName.set(t.name, entry);
    }
  }
  return [...byName.entries()]
    .filter(([, e]) => e.reviews.length >= MIN_TECHNICIAN_MENTIONS)
    .map(([name, e]) => ({
      ...entity(name, e.reviews, (s) => s.staff.includes(name)),
      role: e.role,
    }))
    .sort((a, b) => b.mentions - a.mentions || a.name.localeCompare(b.name));
}

/** Catalogue services with mentions (reviews whose `mentions.services` hold the id) and sentiment. */
export function serviceInsights(
  prepared: readonly PreparedReview[],
  business: Business | null,
): (Entity & { id: string })[] {
  const byService = new Map<string, PreparedReview[]>();
  for (const p of prepared) {
    for (const id of p.review.mentions.services) {
      const list = byService.get(id);
      if (list) list.push(p);
      else byService.set(id, [p]);
    }
  }
  return (business?.services ?? [])
    .map((svc) => ({
      ...entity(svc.name, byService.get(svc.id) ?? [], (s) => s.services.includes(svc.id)),
      id: svc.id,
    }))
    .sort((a, b) => b.mentions - a.mentions || a.id.localeCompare(b.id));
}

const AREA_NAMES: ReadonlyDict<string> = dict({
  service: 'Service department',
  sales: 'Sales',
  finance: 'Finance',
  parts: 'Parts',
  'body-shop': 'Body shop',
});

/** The area of a visit: the source's department, else inferred from the text and mentions. */
export function areaOf(p: PreparedReview): string | null {
  const d = p.review.department;
  if (d === 'sales' || d === 'sales-new' || d === 'sales-used' || d === 'lease') return 'sales';
  if (d && d !== 'other') return d;
  if (p.review.mentions.services.length > 0) return 'service';
  return p.textArea ?? (p.review.name ? textArea(p.review.name) : null);
}

/** Reviews per service area (department), with the sentiment their star ratings give. */
export function serviceAreaInsights(
  prepared: readonly PreparedReview[],
): (Entity & { id: string })[] {
  const groups = new Map<string, PreparedReview[]>();
  for (const p of prepared) {
    const area = areaOf(p);
    if (!area) continue;
    const list = groups.get(area);
    if (list) list.push(p);
    else groups.set(area, [p]);
  }
  return [...groups.entries()]
    .map(([id, reviews]) => {
      const tally = new Tally();
      let sum = 0;
      for (const p of reviews) {
        sum += p.review.reviewRating.ratingValue;
        tally.add(ratingPolarity(p.review.reviewRating.ratingValue));
        for (const s of p.sentences) {
          const polarity = sentencePolarity(s);
          if (polarity && polarity !== 'conflict') {
            const confidence = Math.max(...s.aspects.map((a) => a.confidence));
            tally.offer(sentenceCandidate(p, s, polarity, confidence));
          }
        }
      }
      return {
        id,
        name: AREA_NAMES[id] ?? id,
        mentions: reviews.length,
        averageRating: Math.round((sum / reviews.length) * 100) / 100,
        ...tally.sentiment(),
        evidence: tally.evidence(),
      };
    })
    .sort((a, b) => b.mentions - a.mentions);
}
