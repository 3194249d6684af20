import { computeAggregate, type AggregateRating } from '../domain/aggregate.js';
import type { Review } from '../domain/review.js';
import type { Business } from '../domain/business.js';

export interface StaffSummary {
  name: string;
  role: string | null;
  active: boolean | null;
  /** Reviews whose `mentions.technicians` name this person. */
  mentions: number;
  /** Mean star rating of those reviews, 2 decimals; `null` without mentions. */
  averageRating: number | null;
}

export interface ServiceSummary {
  id: string;
  name: string;
  synonyms: string[];
  mentions: number;
  averageRating: number | null;
}

/** The published reviews of one data version with their business (a snapshot is one). */
export interface ReviewSet {
  readonly business: Business | null;
  readonly reviews: readonly Review[];
}

const staffCache = new WeakMap<ReviewSet, StaffSummary[]>();
const serviceCache = new WeakMap<ReviewSet, ServiceSummary[]>();

/**
 * Staff on the roster (and people the sources tagged who are not on it) with how many reviews
 * mention them; computed once per snapshot. Sorted by mentions, then name.
 */
export function staffSummaries(snapshot: ReviewSet): StaffSummary[] {
  let out = staffCache.get(snapshot);
  if (out) return out;
  const byName = new Map<string, { s: StaffSummary; sum: number }>();
  for (const m of snapshot.business?.staff ?? []) {
    byName.set(m.name.toLowerCase(), {
      s: { name: m.name, role: m.role, active: m.active, mentions: 0, averageRating: null },
      sum: 0,
    });
  }
  for (const r of snapshot.reviews) {
    for (const t of r.mentions.technicians) {
      const key = t.name.toLowerCase();
      let entry = byName.get(key);
      if (!entry) {
        entry = {
          s: { name: t.name, role: t.role, active: null, mentions: 0, averageRating: null },
          sum: 0,
        };
        byName.set(key, entry);
      }
      entry.s.mentions++;
      entry.sum += r.reviewRating.ratingValue;
    }
  }
  out = [...byName.values()]
    .map(({ s, sum }) => ({
      ...s,
      averageRating: s.mentions ? Math.round((sum / s.mentions) * 100) / 100 : null,
    }))
    .sort((a, b) => b.mentions - a.mentions || a.name.localeCompare(b.name));
  staffCache.set(snapshot, out);
  return out;
}

/** The service catalogue with how many reviews mention each service; once per snapshot. */
export function serviceSummaries(snapshot: ReviewSet): ServiceSummary[] {
  let out = serviceCache.get(snapshot);
  if (out) return out;
  const stats = new Map<string, { n: number; sum: number }>();
  for (const r of snapshot.reviews) {
    for (const id of r.mentions.services) {
      const s = stats.get(id) ?? { n: 0, sum: 0 };
      s.n++;
      s.sum += r.reviewRating.ratingValue;
      stats.set(id, s);
    }
  }
  out = (snapshot.business?.services ?? []).map((svc) => {
    const s = stats.get(svc.id);
    return {
      id: svc.id,
      name: svc.name,
      synonyms: svc.synonyms,
      mentions: s?.n ?? 0,
      averageRating: s ? Math.round((s.sum / s.n) * 100) / 100 : null,
    };
  });
  serviceCache.set(snapshot, out);
  return out;
}

export type GroupBy = 'month' | 'department' | 'source';

/** Aggregate ratings grouped by month (`YYYY-MM` of the local date), department or source. */
export function groupedAggregates(
  reviews: readonly Review[],
  groupBy: GroupBy,
): { key: string; aggregateRating: AggregateRating }[] {
  const groups = new Map<string, Review[]>();
  for (const r of reviews) {
    const key =
      groupBy === 'month'
        ? r.date.slice(0, 7)
        : groupBy === 'department'
          ? (r.department ?? 'unknown')
          : r.source;
    const list = groups.get(key);
    if (list) list.push(r);
    else groups.set(key, [r]);
  }
  return [...groups.entries()]
    .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
    .map(([key, list]) => ({ key, aggregateRating: computeAggregate(list) }));
}
