import type { Review } from '../domain/review.js';

/** The sort key of a review in published order: `date`, `datePublished`, `id`. */
export type SortKey = readonly [date: string, datePublished: string, id: string];

/** Compares sort keys in published order (newest first): negative when `a` comes first. */
export function compareKeys(a: SortKey, b: SortKey): number {
  for (let i = 0; i < 3; i++) {
    if (a[i]! > b[i]!) return -1;
    if (a[i]! < b[i]!) return 1;
  }
  return 0;
}

/**
 * Parses stored review records (JSON text) and puts them in published order: newest first by
 * local date, then publication time, then id. Each keeps its JSON text, which is what every
 * endpoint emits.
 */
export function orderReviews(texts: readonly string[]): { json: string; review: Review }[] {
  const pairs = texts.map((json) => ({ json, review: JSON.parse(json) as Review }));
  pairs.sort((a, b) =>
    compareKeys(
      [a.review.date, a.review.datePublished, a.review.id],
      [b.review.date, b.review.datePublished, b.review.id],
    ),
  );
  return pairs;
}
