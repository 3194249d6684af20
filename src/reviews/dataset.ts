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
 * first. Review fragments are the stored JSON texts, written one by one into a buffer of the exact
 * size: at 100k reviews, joining them into one string and encoding that took four times as long
 * and held a second 100 MB copy.
 */
export function renderReviewsDocument(
  business: Business | null,
  aggregate: AggregateRating,
  fragments: readonly string[],
): Buffer {
  const head = `{"business":${JSON.stringify(toPublicBusiness(business))},"aggregateRating":${JSON.stringify(aggregate)},"reviews":[`;
  const tail = ']}';
  let size = Buffer.byteLength(head) + Buffer.byteLength(tail) + Math.max(0, fragments.length - 1);
  for (const fragment of fragments) size += Buffer.byteLength(fragment);
  const out = Buffer.allocUnsafe(size);
  let at = out.write(head, 0);
  for (let i = 0; i < fragments.length; i++) {
    if (i > 0) out[at++] = 0x2c; // ','
    at += out.write(fragments[i]!, at);
  }
  at += out.write(tail, at);
  if (at !== size) throw new Error(`renderReviewsDocument wrote ${at} of ${size} bytes`);
  return out;
}
