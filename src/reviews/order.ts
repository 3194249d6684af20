import { compareKeys, sortKeyOf } from '../domain/order.js';
import type { Review } from '../domain/review.js';

export { compareKeys, type SortKey } from '../domain/order.js';

/**
 * Parses stored review records (JSON text) and puts them in published order: newest first by
 * local date, then publication time, then id. Each keeps its JSON text, which is what every
 * endpoint emits.
 */
export function orderReviews(texts: readonly string[]): { json: string; review: Review }[] {
  const pairs = texts.map((json) => ({ json, review: JSON.parse(json) as Review }));
  pairs.sort((a, b) => compareKeys(sortKeyOf(a.review), sortKeyOf(b.review)));
  return pairs;
}
