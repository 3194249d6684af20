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
 * Writes `head`, the `count` JSON fragments `fragmentAt(0..count-1)` separated by commas, and
 * `tail` into one buffer of the exact size. Joining the fragments into a string and encoding that
 * allocates the text twice more (the joined string and its flattened concatenation with the head),
 * which at 100k reviews took four times as long and, on every search, fed the garbage collector.
 */
export function writeFragments(
  head: string,
  count: number,
  fragmentAt: (i: number) => string,
  tail: string,
): Buffer {
  let size = Buffer.byteLength(head) + Buffer.byteLength(tail) + Math.max(0, count - 1);
  for (let i = 0; i < count; i++) size += Buffer.byteLength(fragmentAt(i));
  const out = Buffer.allocUnsafe(size);
  let at = out.write(head, 0);
  for (let i = 0; i < count; i++) {
    if (i > 0) out[at++] = 0x2c; // ','
    at += out.write(fragmentAt(i), at);
  }
  at += out.write(tail, at);
  if (at !== size) throw new Error(`writeFragments wrote ${at} of ${size} bytes`);
  return out;
}

/**
 * Renders `/reviews.json`: `{ business, aggregateRating, reviews }`, with the reviews newest
 * first. Review fragments are the stored JSON texts, written without re-serialising.
 */
export function renderReviewsDocument(
  business: Business | null,
  aggregate: AggregateRating,
  fragments: readonly string[],
): Buffer {
  const head = `{"business":${JSON.stringify(toPublicBusiness(business))},"aggregateRating":${JSON.stringify(aggregate)},"reviews":[`;
  return writeFragments(head, fragments.length, (i) => fragments[i]!, ']}');
}
