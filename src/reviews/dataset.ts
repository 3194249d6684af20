import type { AggregateRating } from '../domain/aggregate.js';
import type { Business } from '../domain/business.js';
import type { PublicBusiness } from '../domain/public-schemas.js';
import { sharedArray, sharedBytes } from '../platform/arrays.js';

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

/** Room kept before the reviews for the aggregate rating's JSON (about 250 bytes). */
const AGGREGATE_ROOM = 1024;

/**
 * Writes `/reviews.json`, `{ business, aggregateRating, reviews }` with the reviews newest first,
 * as the reviews arrive (in published order, from `Store.readPublished`): review fragments are the
 * stored JSON texts, copied as they come and never re-serialised, so no more than one review's
 * text is held at a time; the offsets of each let every later response reuse the bytes (search
 * and since bodies are cut from them). The aggregate, known only once every review is in, is
 * written last, into room kept for it before the reviews: the body is a view that starts a few
 * bytes into its buffer.
 */
export class ReviewsDocumentWriter {
  private readonly out: Buffer;
  private readonly prefix: string;
  /** Where the reviews start in `out` (the room for the head is before it). */
  private readonly room: number;
  private readonly starts: Uint32Array;
  private readonly ends: Uint32Array;
  private at: number;
  private written = 0;

  /** For `count` reviews whose JSON texts take `bytes` UTF-8 bytes together. */
  constructor(
    business: Business | null,
    private readonly count: number,
    bytes: number,
  ) {
    this.prefix = `{"business":${JSON.stringify(toPublicBusiness(business))},"aggregateRating":`;
    this.room = Buffer.byteLength(this.prefix) + AGGREGATE_ROOM + REVIEWS_OPEN.length;
    const size = this.room + bytes + Math.max(0, count - 1) + REVIEWS_CLOSE.length;
    this.out = sharedBytes(size);
    this.starts = sharedArray(Uint32Array, count);
    this.ends = sharedArray(Uint32Array, count);
    this.at = this.room;
  }

  /** Appends the next review's JSON text. */
  add(json: string): void {
    const i = this.written;
    if (i >= this.count) throw new Error(`ReviewsDocumentWriter: more than ${this.count} reviews`);
    if (i > 0) this.out[this.at++] = 0x2c; // ','
    this.starts[i] = this.at;
    // Measured only when it might not fit (a UTF-16 unit takes at most 3 bytes), so that each
    // text is encoded once.
    const room = this.out.length - REVIEWS_CLOSE.length - this.at;
    if (json.length * 3 > room && Buffer.byteLength(json) > room)
      throw new Error('ReviewsDocumentWriter: the reviews are longer than announced');
    this.at += this.out.write(json, this.at);
    this.ends[i] = this.at;
    this.written++;
  }

  /** Writes the head with `aggregate` and the closing bracket; returns the document. */
  finish(aggregate: AggregateRating): ReviewsDocument {
    const { out, room, starts, ends } = this;
    if (this.written !== this.count || this.at + REVIEWS_CLOSE.length !== out.length)
      throw new Error(
        `ReviewsDocumentWriter: ${this.written} of ${this.count} reviews, ${this.at + REVIEWS_CLOSE.length} of ${out.length} bytes`,
      );
    out.write(REVIEWS_CLOSE, this.at);
    const head = `${this.prefix}${JSON.stringify(aggregate)}${REVIEWS_OPEN}`;
    const headBytes = Buffer.byteLength(head);
    // Its fields are counts, a mean and one RFC 3339 time: about 250 bytes.
    if (headBytes > room)
      throw new Error(`the aggregate rating took ${headBytes - room} bytes too many`);
    const start = room - headBytes;
    out.write(head, start);
    return {
      body: new Uint8Array(out.buffer, start, out.length - start),
      starts: shift(starts, -start),
      ends: shift(ends, -start),
    };
  }
}

const REVIEWS_OPEN = ',"reviews":[';
const REVIEWS_CLOSE = ']}';

function shift(offsets: Uint32Array, by: number): Uint32Array {
  for (let i = 0; i < offsets.length; i++) offsets[i] = offsets[i]! + by;
  return offsets;
}
