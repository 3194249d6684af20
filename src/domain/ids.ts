import { createHash } from 'node:crypto';

/** Namespace UUID for review ids (a fixed random UUID; never change it: ids derive from it). */
const REVIEW_NAMESPACE = '6f1c3b9e-5d2a-4c8e-9b7f-2a4d6e8f0c13';

function uuidV5(name: string, namespace: string): string {
  const ns = Buffer.from(namespace.replaceAll('-', ''), 'hex');
  const hash = createHash('sha1').update(ns).update(name, 'utf8').digest();
  const b = hash.subarray(0, 16);
  b[6] = (b[6]! & 0x0f) | 0x50;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const hex = b.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * The public id of a review: a name-based UUID (RFC 9562 version 5) of `source:sourceReviewId`.
 * It is stable across imports and deployments and never reused for another review, because
 * `(source, sourceReviewId)` is the upsert key.
 */
export function reviewId(source: string, sourceReviewId: string): string {
  return uuidV5(`${source}:${sourceReviewId}`, REVIEW_NAMESPACE);
}

/** The permanent IRI used as the Atom entry id and the JSON Feed item id of a review. */
export function reviewUrn(id: string): string {
  return `urn:uuid:${id}`;
}

/** The permanent id of the feeds of one business (independent of BASE_URL). */
export function feedUrn(businessId: string): string {
  return `urn:uuid:${uuidV5(`feed:${businessId}`, REVIEW_NAMESPACE)}`;
}
