/**
 * How the index writes its keys: the word runs of a text (its tokens), a person's name for
 * lookup, and a local date as a number. The builder and the search both use them, so a query's
 * keys are the index's.
 */

/** Splits lower-cased text into its word runs (letters, digits, combining marks). */
export function wordRuns(lower: string): string[] {
  return lower.match(/[\p{L}\p{N}\p{M}]+/gu) ?? [];
}

/** Normalises a person's name for lookup: lower case, single spaces. */
export function normalizeName(name: string): string {
  return name.trim().toLowerCase().replace(/\s+/g, ' ');
}

/** The integer YYYYMMDD of a `YYYY-MM-DD` date: the same order, compared as numbers. */
export function dayNumber(date: string): number {
  return (
    Number(date.slice(0, 4)) * 10_000 + Number(date.slice(5, 7)) * 100 + Number(date.slice(8, 10))
  );
}

/** The `YYYY-MM-DD` of a day number. */
export function dayString(day: number): string {
  const y = Math.floor(day / 10_000);
  const m = Math.floor(day / 100) % 100;
  const d = day % 100;
  return `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}
