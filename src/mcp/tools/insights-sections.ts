import { DOCUMENTS } from '../../catalogue.js';
import type { Insights } from '../../insights/index.js';
import type { Snapshot } from '../../snapshot/types.js';
import type { TextBuilder } from '../text-copy.js';
import { renderText } from '../internal/render.js';

/**
 * The insights document as `get_insights` reads it: its sections, the overview (what most
 * questions need) and its text copy, and the items of each list section.
 */

/** The sections of the insights an agent can ask for; the list ones are paged. */
export const SECTIONS = [
  'aspects',
  'staff',
  'services',
  'serviceAreas',
  'topics',
  'faq',
  'summary',
  'changes',
  'ownerResponses',
  'method',
  'entities',
] as const;
export type Section = (typeof SECTIONS)[number];

/** The insights document of a snapshot (parsed once), or `null` while it is being computed. */
export function insightsOf(snapshot: Snapshot): Insights | null {
  return snapshot.parsed<Insights>(DOCUMENTS.insights.path);
}

export const sentiment = (s: {
  positive: number;
  negative: number;
  neutral: number;
  mixed: number;
  score: number | null;
}) => ({
  score: s.score,
  positive: s.positive,
  negative: s.negative,
  neutral: s.neutral,
  mixed: s.mixed,
});

/** The overview: what most questions need, without quotes or trends (about 2,000 tokens). */
export function overview(doc: Insights): Record<string, unknown> {
  return {
    reviewCount: doc.reviewCount,
    generatedAt: doc.generatedAt,
    period: doc.period,
    summary: doc.summary.text,
    aspects: doc.aspects.map((a) => ({
      id: a.id,
      name: a.name,
      mentions: a.mentions,
      ...sentiment(a),
    })),
    changes: doc.changes.map((c) => ({
      aspect: c.aspect,
      name: c.name,
      direction: c.direction,
      recentNegativeShare: c.recent.negativeShare,
      beforeNegativeShare: c.before.negativeShare,
      recent: `${c.recent.from}..${c.recent.to}`,
      pValue: c.test.pValue,
      adjustedPValue: c.test.adjustedPValue,
    })),
    topStaff: doc.entities.technicians.slice(0, 5).map((t) => ({
      name: t.name,
      role: t.role,
      mentions: t.mentions,
      averageRating: t.averageRating,
      ...sentiment(t),
    })),
    ownerResponses: doc.ownerResponses,
    more: 'Ask for one section (aspects, staff, services, serviceAreas, topics, faq, summary, changes, ownerResponses, method) for quotes; `id` picks one item; `trend: true` adds the monthly trends of the aspects.',
  };
}

/**
 * The text copy of the overview: its tables without the display names (the ids say the same),
 * the summary first in line for the budget, and a short hint instead of `more`.
 */
export function overviewText(o: Record<string, unknown>): TextBuilder {
  const unnamed = (list: unknown) =>
    (list as Record<string, unknown>[]).map(({ name: _n, ...rest }) => rest);
  const slim = {
    reviews: o.reviewCount,
    period: o.period,
    generatedAt: o.generatedAt,
    summary: o.summary,
    aspects: unnamed(o.aspects),
    changes: unnamed(o.changes),
    topStaff: o.topStaff,
    ownerResponses: o.ownerResponses,
  };
  return (limits) =>
    `${renderText(slim, limits)}\nmore: get_insights with section (aspects, staff, services, serviceAreas, topics, faq, summary, changes, ownerResponses, method) and id.`;
}

/** The items of a list section, and the key an `id` argument matches. */
export function listOf(
  doc: Insights,
  section: Section,
): { items: unknown[]; key: (i: never) => string } | null {
  switch (section) {
    case 'aspects':
      return { items: doc.aspects, key: (a: { id: string }) => a.id };
    case 'staff':
      return { items: doc.entities.technicians, key: (t: { name: string }) => t.name };
    case 'services':
      return { items: doc.entities.services, key: (s: { id: string }) => s.id };
    case 'serviceAreas':
      return { items: doc.entities.serviceAreas, key: (s: { id: string }) => s.id };
    case 'topics':
      return { items: doc.topics, key: (t: { id: string }) => t.id };
    case 'faq':
      return { items: doc.faq, key: (f: { id: string }) => f.id };
    default:
      return null;
  }
}

/** Everything of a section that is not a list. */
export function whole(doc: Insights, section: Section): unknown {
  switch (section) {
    case 'summary':
      return doc.summary;
    case 'changes':
      return doc.changes;
    case 'ownerResponses':
      return doc.ownerResponses;
    case 'method':
      return doc.method;
    default: {
      // `entities` (the earlier name of staff, services and serviceAreas): the lists without
      // their quotes.
      const strip = <T extends { evidence: unknown }>({ evidence: _e, ...rest }: T) => rest;
      return {
        technicians: doc.entities.technicians.map(strip),
        services: doc.entities.services.map(strip),
        serviceAreas: doc.entities.serviceAreas.map(strip),
      };
    }
  }
}
