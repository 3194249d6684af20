import type { Business } from '../domain/business.js';
import type { TaggedStaff, TechnicianMention } from '../domain/review.js';
import { buildServiceIndex, matchServices } from './internal/services.js';
import { buildStaffIndex, matchStaff, resolveStaff } from './internal/staff.js';
import { tokenize } from './internal/tokens.js';

/** What the matcher reads from a review. */
export interface MentionText {
  name: string | null;
  reviewBody: string | null;
}

export interface Mentions {
  technicians: TechnicianMention[];
  services: string[];
}

/** Finds staff and services named in review text, from the business's roster and catalogue. */
export interface MentionMatcher {
  match(text: MentionText, tagged?: readonly TaggedStaff[]): Mentions;
}

const VIA_RANK = { tagged: 0, 'free-text': 1 } as const;

/**
 * Compiles the roster and service catalogue of a business into a matcher. Staff are found by full
 * name, by a first name that is unique on the roster, by alias or quoted nickname, with or
 * without a possessive, in any case (common-word names need a capital, and "Will", "May" and
 * "Hope" alone do not count as the first word of a sentence), and with one-letter misspellings
 * of capitalised names of five letters or more. Services are found by their name and synonyms
 * as whole words, plural forms included. Staff named by the source take precedence: tagged
 * first, then free-text names, each resolved to the roster when it names one member, and a
 * person is reported once, under the strongest evidence; text matches add the others.
 */
export function compileMentionMatcher(
  business: Pick<Business, 'staff' | 'services'> | null,
): MentionMatcher {
  const staffIndex = buildStaffIndex(business?.staff ?? []);
  const serviceIndex = buildServiceIndex(business?.services ?? []);

  return {
    match(text, tagged = []) {
      const joined = [text.name, text.reviewBody].filter((s): s is string => !!s).join('\n');
      const tokens = tokenize(joined);
      const technicians: TechnicianMention[] = [];
      const seen = new Set<string>();
      const ordered = [...tagged].sort((a, b) => VIA_RANK[a.via] - VIA_RANK[b.via]);
      for (const t of ordered) {
        const member = resolveStaff(t.name, staffIndex);
        const key = member ? `id:${member.id}` : `name:${t.name.trim().toLowerCase()}`;
        if (seen.has(key)) continue;
        seen.add(key);
        const name = member?.name ?? t.name.trim();
        technicians.push({ name, role: member?.role ?? null, via: t.via, rating: t.rating });
      }
      for (const member of matchStaff(tokens, staffIndex)) {
        if (seen.has(`id:${member.id}`)) continue;
        seen.add(`id:${member.id}`);
        technicians.push({ name: member.name, role: member.role, via: 'text-match', rating: null });
      }
      return { technicians, services: matchServices(tokens, serviceIndex) };
    },
  };
}
