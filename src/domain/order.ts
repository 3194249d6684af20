/**
 * Published order: newest first by local `date`, then `datePublished`, then `id`. Every list the
 * service publishes, the store's ordered read and the search cursors follow it.
 */

/** The sort key of a review in published order: `date`, `datePublished`, `id`. */
export type SortKey = readonly [date: string, datePublished: string, id: string];

/**
 * Compares sort keys in published order (newest first): negative when `a` comes first. Only the
 * first three elements count, so rows that carry more after their key sort as they are.
 */
export function compareKeys(
  a: readonly [string, string, string, ...unknown[]],
  b: readonly [string, string, string, ...unknown[]],
): number {
  for (let i = 0; i < 3; i++) {
    if (a[i]! > b[i]!) return -1;
    if (a[i]! < b[i]!) return 1;
  }
  return 0;
}

/** The sort key of a review record (or of the fields of one a store read). */
export function sortKeyOf(r: { date: string; datePublished: string; id: string }): SortKey {
  return [r.date, r.datePublished, r.id];
}
