import { z } from 'zod';
import { AggregateRatingSchema, type PublicBusiness } from '../../domain/public-schemas.js';
import { toPublicBusiness } from '../../reviews/dataset.js';
import { clip, DEFAULT_RESULT_TOKENS, structuredBudget, TEXT_CUT } from '../agent.js';
import type { TextBuilder } from '../text-copy.js';
import { fitStrings } from '../internal/fit.js';
import type { ToolDefinition } from './types.js';

/** `get_business`: the business profile with its aggregate rating, and a text copy of its facts. */

/** An aggregate rating in a line: `4.08/5 of 1800 (1565 with text); 1-5★: 234 96 96 234 1140`. */
function ratingLine(a: z.infer<typeof AggregateRatingSchema>): string {
  const d = a.distribution;
  return `${a.ratingValue ?? 'none'}/5 of ${a.ratingCount} (${a.reviewCount} with text); 1-5★: ${d[1]} ${d[2]} ${d[3]} ${d[4]} ${d[5]}`;
}

interface BusinessResult {
  business: Partial<Omit<PublicBusiness, 'staff' | 'services'>> | null;
  aggregateRating: z.infer<typeof AggregateRatingSchema>;
  staffCount: number;
  serviceCount: number;
}

/** The text copy of get_business: the facts in a few sentences. */
function businessText({
  business: b,
  aggregateRating,
  staffCount,
  serviceCount,
}: BusinessResult): TextBuilder {
  return ({ cap }) => {
    const clipped = (s: string) => clip(s, Math.max(cap, 40));
    const lines: string[] = [];
    if (b) {
      const a = b.address;
      const where = a
        ? [
            a.streetAddress,
            a.addressLocality,
            `${a.addressRegion} ${a.postalCode}`.trim(),
            a.addressCountry,
          ]
            .filter(Boolean)
            .join(', ')
        : '';
      const facts = [
        `${clipped(b.name ?? '')}${b.legalName ? ` (${clipped(b.legalName)})` : ''}: ${clipped(where)}`,
        b.telephone ? `tel ${b.telephone}` : null,
        b.url ? clipped(b.url) : null,
        b.timeZone,
        b.brands?.length ? `brands ${b.brands.map(clipped).join(', ')}` : null,
      ];
      lines.push(facts.filter(Boolean).join('; '));
      if (b.departments?.length)
        lines.push(
          `departments: ${b.departments.map((d) => `${clipped(d.name)}${d.id === d.name.toLowerCase() ? '' : ` [${d.id}]`}${d.telephone ? ` ${d.telephone}` : ''}`).join(', ')}`,
        );
    } else lines.push('No business profile was imported.');
    lines.push(`rating ${ratingLine(aggregateRating)}`);
    lines.push(
      `${staffCount} staff, ${serviceCount} services: list_staff, list_services${b?.sameAs?.length ? `; ${b.sameAs.length} profiles elsewhere (sameAs)` : ''}`,
    );
    return lines.join('\n');
  };
}

/** The free strings of a business profile, which a profile at the import's limits may make long. */
const BUSINESS_TEXT = new Set([
  'name',
  'legalName',
  'url',
  'sameAs[]',
  'brands[]',
  'streetAddress',
  'addressLocality',
  'addressRegion',
]);

export const getBusiness: ToolDefinition = {
  name: 'get_business',
  title: 'Get business',
  description:
    'The business these reviews are about (name, address, telephone, time zone, brands, departments) with its aggregate rating, and how many staff and services it lists (list_staff and list_services give them).',
  input: z.strictObject({}),
  output: z.object({
    business: z.record(z.string(), z.unknown()).nullable(),
    aggregateRating: AggregateRatingSchema,
    staffCount: z.number().int(),
    serviceCount: z.number().int(),
  }),
  run(_args, { snapshot }) {
    const full = toPublicBusiness(snapshot.business);
    const business = full
      ? Object.fromEntries(
          Object.entries(full).filter(
            ([k, v]) =>
              k !== 'staff' &&
              k !== 'services' &&
              v !== null &&
              !(Array.isArray(v) && v.length === 0),
          ),
        )
      : null;
    const structured = fitStrings(
      {
        business,
        aggregateRating: snapshot.aggregate,
        staffCount: full?.staff.length ?? 0,
        serviceCount: full?.services.length ?? 0,
      },
      structuredBudget(DEFAULT_RESULT_TOKENS),
      { weight: (k) => (BUSINESS_TEXT.has(k) ? 1 : 0), mark: () => TEXT_CUT },
    );
    return { structured, text: businessText(structured as BusinessResult) };
  },
};
