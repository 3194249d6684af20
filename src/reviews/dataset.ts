import type { AggregateRating } from '../domain/aggregate.js';
import type { Business } from '../domain/business.js';
import type { PublicBusiness } from '../domain/public-schemas.js';

/** The business record as published: staff with name, role and whether still on staff. */
export function toPublicBusiness(business: Business | null): PublicBusiness | null {
  if (!business) return null;
  return {
    id: business.id,
    name: business.name,
    legalName: business.legalName,
    url: business.url,
    telephone: business.telephone,
    address: business.address,
    geo: business.geo,
    timeZone: business.timeZone,
    brands: business.brands,
    sameAs: business.sameAs,
    departments: business.departments,
    staff: business.staff.map((s) => ({ name: s.name, role: s.role, active: s.active })),
    services: business.services.map((s) => ({ id: s.id, name: s.name, synonyms: s.synonyms })),
  };
}

/**
 * Renders `/reviews.json`: `{ business, aggregateRating, reviews }`, with the reviews newest
 * first. Review fragments are the stored JSON texts, joined without re-serialising.
 */
export function renderReviewsDocument(
  business: Business | null,
  aggregate: AggregateRating,
  fragments: readonly string[],
): string {
  const head = `{"business":${JSON.stringify(toPublicBusiness(business))},"aggregateRating":${JSON.stringify(aggregate)},"reviews":[`;
  return `${head}${fragments.join(',')}]}`;
}
