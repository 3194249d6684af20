import { AggregateBuilder, type AggregateRating } from '../domain/aggregate.js';
import type { Business } from '../domain/business.js';
import type { IndexedFacts } from '../domain/review.js';
import type { SearchIndex } from './search-index.js';

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

/** The per-version figures about staff and services, computed once with the version. */
export interface Views {
  readonly staff: readonly StaffSummary[];
  readonly services: readonly ServiceSummary[];
}

/**
 * Accumulates the staff and service figures of a version one review at a time (the build reads
 * the reviews without holding them all).
 */
export class ViewsBuilder {
  private readonly staff = new Map<string, { s: StaffSummary; sum: number }>();
  private readonly services = new Map<string, { n: number; sum: number }>();

  constructor(private readonly business: Business | null) {
    for (const m of business?.staff ?? []) {
      this.staff.set(m.name.toLowerCase(), {
        s: { name: m.name, role: m.role, active: m.active, mentions: 0, averageRating: null },
        sum: 0,
      });
    }
  }

  add(r: Pick<IndexedFacts, 'mentions' | 'reviewRating'>): void {
    const rating = r.reviewRating.ratingValue;
    for (const t of r.mentions.technicians) {
      const key = t.name.toLowerCase();
      let entry = this.staff.get(key);
      if (!entry) {
        entry = {
          s: { name: t.name, role: t.role, active: null, mentions: 0, averageRating: null },
          sum: 0,
        };
        this.staff.set(key, entry);
      }
      entry.s.mentions++;
      entry.sum += rating;
    }
    for (const id of r.mentions.services) {
      const s = this.services.get(id) ?? { n: 0, sum: 0 };
      s.n++;
      s.sum += rating;
      this.services.set(id, s);
    }
  }

  /**
   * Staff on the roster (and people the sources tagged who are not on it) with how many reviews
   * mention them, sorted by mentions, then name; the service catalogue with how many reviews
   * mention each service.
   */
  finish(): Views {
    const staff = [...this.staff.values()]
      .map(({ s, sum }) => ({
        ...s,
        averageRating: s.mentions ? Math.round((sum / s.mentions) * 100) / 100 : null,
      }))
      .sort((a, b) => b.mentions - a.mentions || a.name.localeCompare(b.name));
    const services = (this.business?.services ?? []).map((svc) => {
      const s = this.services.get(svc.id);
      return {
        id: svc.id,
        name: svc.name,
        synonyms: svc.synonyms,
        mentions: s?.n ?? 0,
        averageRating: s ? Math.round((s.sum / s.n) * 100) / 100 : null,
      };
    });
    return { staff, services };
  }
}

export type GroupBy = 'month' | 'department' | 'source';

/**
 * The aggregate rating of the positions `from` to `to` (exclusive) of the index, overall and
 * grouped by month (`YYYY-MM` of the local date), department or source; from the index's columns,
 * without reading any review.
 */
export function rangeAggregates(
  index: SearchIndex,
  from: number,
  to: number,
  groupBy: GroupBy | undefined,
): { overall: AggregateRating; groups: { key: string; aggregateRating: AggregateRating }[] } {
  const overall = new AggregateBuilder();
  const groups = new Map<string, AggregateBuilder>();
  const { departments, departmentOf, sources, sourceOf } = index.data;
  for (let pos = from; pos < to; pos++) {
    const rating = index.rating(pos);
    const hasText = index.hasText(pos);
    const modified = index.dateModified(pos);
    overall.add(rating, hasText, modified);
    if (!groupBy) continue;
    const key =
      groupBy === 'month'
        ? index.date(pos).slice(0, 7)
        : groupBy === 'department'
          ? departments[departmentOf[pos]!]!
          : sources[sourceOf[pos]!]!;
    let group = groups.get(key);
    if (!group) {
      group = new AggregateBuilder();
      groups.set(key, group);
    }
    group.add(rating, hasText, modified);
  }
  return {
    overall: overall.result(),
    groups: [...groups.entries()]
      .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
      .map(([key, builder]) => ({ key, aggregateRating: builder.result() })),
  };
}
