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
 * `tail` into one buffer of the exact size (fragments are the stored review bytes, copied as
 * they are, never re-serialised).
 */
export function writeFragments(
  head: string,
  count: number,
  fragmentAt: (i: number) => Uint8Array,
  tail: string,
): Buffer {
  let size = Buffer.byteLength(head) + Buffer.byteLength(tail) + Math.max(0, count - 1);
  for (let i = 0; i < count; i++) size += fragmentAt(i).length;
  const out = Buffer.allocUnsafe(size);
  let at = out.write(head, 0);
  for (let i = 0; i < count; i++) {
    if (i > 0) out[at++] = 0x2c; // ','
    const fragment = fragmentAt(i);
    out.set(fragment, at);
    at += fragment.length;
  }
  at += out.write(tail, at);
  if (at !== size) throw new Error(`writeFragments wrote ${at} of ${size} bytes`);
  return out;
}

/** `/reviews.json` as bytes, and where each review's JSON lies in them. */
export interface ReviewsDocument {
  /**
   * A `SharedArrayBuffer` of its own: the thread that built it can still compress it after the
   * thread that serves it has it, with neither a copy nor a transfer.
   */
  readonly body: Uint8Array;
  /** Byte offsets of review `i` (published order): `body[starts[i], ends[i])`. */
  readonly starts: Uint32Array;
  readonly ends: Uint32Array;
}

/**
 * Renders `/reviews.json`: `{ business, aggregateRating, reviews }`, with the reviews newest
 * first. Review fragments are the stored JSON texts, written without re-serialising; the offsets
 * of each let every later response reuse the bytes (search and since bodies are cut from them).
 */
export function renderReviewsDocument(
  business: Business | null,
  aggregate: AggregateRating,
  fragments: readonly string[],
): ReviewsDocument {
  const head = `{"business":${JSON.stringify(toPublicBusiness(business))},"aggregateRating":${JSON.stringify(aggregate)},"reviews":[`;
  const n = fragments.length;
  let size = Buffer.byteLength(head) + 2 + Math.max(0, n - 1);
  for (const f of fragments) size += Buffer.byteLength(f);
  const body = new Uint8Array(new SharedArrayBuffer(size));
  const out = Buffer.from(body.buffer);
  const starts = new Uint32Array(n);
  const ends = new Uint32Array(n);
  let at = out.write(head, 0);
  for (let i = 0; i < n; i++) {
    if (i > 0) out[at++] = 0x2c; // ','
    starts[i] = at;
    at += out.write(fragments[i]!, at);
    ends[i] = at;
  }
  at += out.write(']}', at);
  if (at !== size) throw new Error(`renderReviewsDocument wrote ${at} of ${size} bytes`);
  return { body, starts, ends };
}
