import { type Dict } from '../../platform/dict.js';
/**
 * Measuring and cutting JSON by the bytes it takes on the wire. A result travels as JSON, where a
 * character costs 1 to 6 bytes (ASCII 1, CJK 3, an emoji 4 for its two UTF-16 units, a quote or a
 * backslash 2, a control character up to 6), so budgets are kept in bytes, never in characters.
 */

/** The bytes a value takes as JSON. */
export function jsonBytes(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value) ?? '');
}

/** The bytes of one UTF-16 unit (or surrogate pair starting at `i`) inside a JSON string. */
function unitBytes(s: string, i: number): { bytes: number; width: number } {
  const c = s.charCodeAt(i);
  if (c < 0x20) {
    // \b \t \n \f \r are two bytes; the other controls are \u00XX.
    return { bytes: c === 8 || c === 9 || c === 10 || c === 12 || c === 13 ? 2 : 6, width: 1 };
  }
  if (c === 0x22 || c === 0x5c) return { bytes: 2, width: 1 };
  if (c < 0x80) return { bytes: 1, width: 1 };
  if (c < 0x800) return { bytes: 2, width: 1 };
  if (c >= 0xd800 && c <= 0xdbff) {
    const next = s.charCodeAt(i + 1);
    // A pair is one 4-byte character; a lone surrogate is escaped as \uXXXX.
    if (next >= 0xdc00 && next <= 0xdfff) return { bytes: 4, width: 2 };
    return { bytes: 6, width: 1 };
  }
  if (c >= 0xdc00 && c <= 0xdfff) return { bytes: 6, width: 1 };
  return { bytes: 3, width: 1 };
}

/** The bytes of a string's content as a JSON string (without its two quotes). */
export function stringBytes(s: string): number {
  return Buffer.byteLength(JSON.stringify(s)) - 2;
}

/** The longest prefix of `s` whose JSON content takes at most `maxBytes` (pairs are not split). */
export function prefixWithin(s: string, maxBytes: number): string {
  let used = 0;
  let i = 0;
  while (i < s.length) {
    const { bytes, width } = unitBytes(s, i);
    if (used + bytes > maxBytes) break;
    used += bytes;
    i += width;
  }
  return s.slice(0, i);
}

/** The first `chars` characters of `s`, without splitting a surrogate pair. */
export function prefixChars(s: string, chars: number): string {
  if (s.length <= chars) return s;
  let end = Math.max(0, chars);
  const c = s.charCodeAt(end - 1);
  if (c >= 0xd800 && c <= 0xdbff) end--;
  return s.slice(0, end);
}

/** How `fitStrings` treats the strings of a value, by their key (`staff[]` for list items). */
export interface FitRules {
  /** How much a string keeps relative to the others when all are cut (0: never cut). */
  weight(key: string, parent: string | undefined): number;
  /** What ends a cut string: it says so, how much is shown, and where the whole is. */
  mark(shown: number, total: number, key: string): string;
  /** Characters a string keeps at most, whatever the budget (none when `undefined`). */
  maxChars?(key: string, parent: string | undefined): number | undefined;
}

/** A string inside a JSON value that may be cut, and how to put its cut form back. */
interface Leaf {
  key: string;
  original: string;
  /** The string after `maxChars`, and its bytes. */
  kept: string;
  bytes: number;
  capped: boolean;
  weight: number;
  markBytes: number;
  set(cut: string): void;
}

function leaves(value: unknown, rules: FitRules, out: Leaf[], parent?: string): void {
  const visit = (key: string, s: string, set: (cut: string) => void) => {
    const weight = rules.weight(key, parent);
    if (weight <= 0) return;
    const max = rules.maxChars?.(key, parent);
    const kept = max === undefined ? s : prefixChars(s, max);
    out.push({
      key,
      original: s,
      kept,
      bytes: stringBytes(kept),
      capped: kept.length < s.length,
      weight,
      markBytes: stringBytes(rules.mark(99_999, 99_999, key)),
      set,
    });
  };
  if (Array.isArray(value)) {
    value.forEach((item, i) => {
      if (typeof item === 'string') {
        if (parent !== undefined) visit(`${parent}[]`, item, (cut) => (value[i] = cut));
      } else leaves(item, rules, out, parent);
    });
    return;
  }
  if (value === null || typeof value !== 'object') return;
  // Its own keys, written back: none can be a prototype member's name that was not there.
  const record = value as Dict<unknown>;
  for (const [key, item] of Object.entries(record)) {
    if (typeof item === 'string') visit(key, item, (cut) => (record[key] = cut));
    else leaves(item, rules, out, key);
  }
}

/**
 * A copy of a JSON value whose strings are cut to take at most `maxBytes` as JSON: first each to
 * its `maxChars`, then, if the value is still too large, every string longer than a common
 * length (times its weight) to that length, the others whole. A cut string ends with
 * `mark(shown, total)` (characters shown and in all). When even empty strings do not fit, every
 * cuttable string is its mark alone (the caller's budget leaves room for that).
 */
export function fitStrings<T>(value: T, maxBytes: number, rules: FitRules): T {
  if (rules.maxChars === undefined && jsonBytes(value) <= maxBytes) return value;
  const copy = structuredClone(value);
  const found: Leaf[] = [];
  leaves(copy, rules, found);
  const fixed = jsonBytes(copy) - found.reduce((a, l) => a + stringBytes(l.original), 0);
  const cost = (length: number) =>
    fixed +
    found.reduce((a, l) => {
      const room = length * l.weight;
      return (
        a + (l.bytes <= room ? l.bytes : room) + (l.capped || l.bytes > room ? l.markBytes : 0)
      );
    }, 0);
  // The largest common length that fits (binary search over the bytes of the longest).
  let hi = Math.max(0, ...found.map((l) => Math.ceil(l.bytes / l.weight)));
  let lo = 0;
  if (cost(hi) <= maxBytes) lo = hi;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (cost(mid) <= maxBytes) lo = mid;
    else hi = mid - 1;
  }
  for (const leaf of found) {
    const room = lo * leaf.weight;
    const shown = leaf.bytes <= room ? leaf.kept : prefixWithin(leaf.kept, room);
    if (shown.length < leaf.original.length)
      leaf.set(`${shown}${rules.mark(shown.length, leaf.original.length, leaf.key)}`);
  }
  return copy;
}
