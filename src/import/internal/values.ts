import { isCalendarDate, localToInstant, normalizeInstant } from '../../domain/dates.js';
import type { Department } from '../../domain/review.js';
import { fieldError, type RowContext } from '../types.js';
import { dict, own, type ReadonlyDict } from '../../platform/dict.js';

/** A plain object read from JSON, or `null` for anything else. */
export function asRecord(value: unknown): Record<string, unknown> | null {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : null;
}

/**
 * The value of the first of `names` present in `obj`, compared case-insensitively, with the key
 * as the file spells it. Third-party JSON is PascalCase in one export and camelCase in another.
 */
export function pick(
  obj: Record<string, unknown>,
  ...names: string[]
): { key: string; value: unknown } | null {
  for (const name of names) {
    const value = own(obj, name);
    if (value !== undefined) return { key: name, value };
  }
  const lower = new Map(Object.keys(obj).map((k) => [k.toLowerCase(), k]));
  for (const name of names) {
    const key = lower.get(name.toLowerCase());
    const value = key === undefined ? undefined : own(obj, key);
    if (key !== undefined && value !== undefined) return { key, value };
  }
  return null;
}

/** A trimmed non-empty string from a string or number, else `null`. */
export function text(value: unknown): string | null {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value !== 'string') return null;
  const t = value.trim();
  return t === '' ? null : t;
}

const STAR_WORDS: ReadonlyDict<number> = dict({ ONE: 1, TWO: 2, THREE: 3, FOUR: 4, FIVE: 5 });

/**
 * Shortens a value for a rejection reason: a string cut at 40 characters, a number, boolean or
 * null as written; an array or an object only by its kind (serialising one to show 40 characters
 * could mean megabytes, or a stack overflow for one nested thousands deep).
 */
export function show(value: unknown): string {
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object' && value !== null) return 'an object';
  const s = typeof value === 'string' ? value : String(value);
  return s.length > 40 ? `${JSON.stringify(s.slice(0, 40))}...` : JSON.stringify(s);
}

/** Rounds a rating given with decimals (DealerRater's 4.5) half up, or rejects it. */
export function roundRating(n: number, field: string): number {
  if (!Number.isFinite(n) || n < 1 || n > 5) {
    throw fieldError(field, `rating must be from 1 to 5, got ${n}`);
  }
  return Math.floor(n + 0.5);
}

/**
 * Google's `starRating`: the words `ONE`..`FIVE` (any case), or an integer 1-5.
 * `STAR_RATING_UNSPECIFIED`, another word or a missing value is a `fieldError`.
 */
export function parseStarWord(value: unknown, field: string): number {
  if (value === undefined || value === null || value === '') {
    throw fieldError(field, 'missing rating');
  }
  if (typeof value === 'number' && Number.isInteger(value)) return roundRating(value, field);
  const word = typeof value === 'string' ? value.trim().toUpperCase() : '';
  if (word === 'STAR_RATING_UNSPECIFIED') throw fieldError(field, 'rating is unspecified');
  const n = STAR_WORDS[word];
  if (n === undefined) {
    throw fieldError(field, `must be one of ONE, TWO, THREE, FOUR, FIVE, got ${show(value)}`);
  }
  return n;
}

/**
 * A rating as reputation tools write it: `5`, `4.0`, `4.5` (rounded half up), `4/5`, `5 stars`,
 * `★★★★☆`, or a star word (`five`, `FIVE`). Anything else is a `fieldError`.
 */
export function parseLooseRating(value: unknown, field: string): number {
  if (typeof value === 'number') return roundRating(value, field);
  const raw = typeof value === 'string' ? value.trim() : '';
  if (raw === '') throw fieldError(field, 'missing rating');
  if (/^[★☆]+$/.test(raw)) return roundRating([...raw].filter((c) => c === '★').length, field);
  const m = /^(\d+(?:[.,]\d+)?)\s*(?:\/\s*5|stars?|out of 5)?$/i.exec(raw);
  if (m) return roundRating(Number(m[1]!.replace(',', '.')), field);
  const word = STAR_WORDS[raw.toUpperCase()];
  if (word !== undefined) return word;
  if (raw.toUpperCase() === 'STAR_RATING_UNSPECIFIED')
    throw fieldError(field, 'rating is unspecified');
  throw fieldError(
    field,
    `must be a rating from 1 to 5 (5, 4.5, 4/5, 5 stars, ★★★★☆ or five), got ${show(value)}`,
  );
}

const OFFSET_NO_COLON = /([+-]\d{2})(\d{2})$/;
const ISO_LIKE = /^(\d{4}-\d{2}-\d{2})(?:[Tt ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)?/;
const US_DATE =
  /^(\d{1,2})\/(\d{1,2})\/(\d{4})(?:[ T,]+(\d{1,2}):(\d{2})(?::(\d{2}))?\s*([AaPp][Mm])?)?$/;
const SLASH_ISO = /^(\d{4})\/(\d{1,2})\/(\d{1,2})(?:[ T](\d{2}:\d{2}(?::\d{2})?))?$/;

const pad = (n: number | string): string => String(n).padStart(2, '0');

function usToIso(m: RegExpExecArray): string {
  let hour = m[4] === undefined ? null : Number(m[4]);
  const ampm = m[7]?.toUpperCase();
  if (hour !== null && ampm === 'PM' && hour < 12) hour += 12;
  if (hour !== null && ampm === 'AM' && hour === 12) hour = 0;
  const date = `${m[3]}-${pad(m[1]!)}-${pad(m[2]!)}`;
  return hour === null ? date : `${date}T${pad(hour)}:${m[5]}:${m[6] ?? '00'}`;
}

function toIsoLocal(raw: string): string {
  const us = US_DATE.exec(raw);
  if (us) return usToIso(us);
  const slash = SLASH_ISO.exec(raw);
  if (slash) {
    const date = `${slash[1]}-${pad(slash[2]!)}-${pad(slash[3]!)}`;
    return slash[4] ? `${date}T${slash[4]}` : date;
  }
  return raw;
}

/**
 * A date or time as exports write it, to an RFC 3339 UTC instant: RFC 3339 with an offset
 * (`Z`, `+02:00`, `+0200`), or a local time without one (`2024-05-01 14:30`, `2024-05-01`,
 * `5/1/2024 2:30 PM` (US month first), `2024/05/01`), read in the business's time zone; a date
 * alone is taken as noon. An impossible or unreadable date is a `fieldError`.
 */
export function parseDateTime(value: unknown, field: string, ctx: RowContext): string {
  const raw = typeof value === 'string' ? value.trim() : '';
  if (raw === '') throw fieldError(field, 'missing date');
  const iso = toIsoLocal(raw.replace(OFFSET_NO_COLON, '$1:$2'));
  const day = ISO_LIKE.exec(iso)?.[1];
  if (day !== undefined && !isCalendarDate(day)) {
    throw fieldError(field, `${show(raw)} is not a real calendar date`);
  }
  const instant = normalizeInstant(iso);
  if (instant !== null) return instant;
  const local = localToInstant(iso, ctx.timeZone);
  if (local !== null) {
    ctx.noteLocalTime();
    return local;
  }
  throw fieldError(
    field,
    `${show(raw)} is not a date (expected RFC 3339, YYYY-MM-DD[ HH:MM], or M/D/YYYY)`,
  );
}

/** Like `parseDateTime`, but an absent or empty value is `null`. */
export function parseOptionalDateTime(
  value: unknown,
  field: string,
  ctx: RowContext,
): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value === 'string' && value.trim() === '') return null;
  return parseDateTime(value, field, ctx);
}

/**
 * A department as DealerRater (`SALES_NEW`, `LEASE_USED`, "SALES VISIT - USED") or an export
 * names it; unknown names are `other`, an empty value `null`.
 */
export function parseDepartment(value: unknown): Department | null {
  const raw = text(value);
  if (raw === null) return null;
  const k = raw.toUpperCase().replace(/[^A-Z]+/g, '_');
  if (k.includes('SERVICE') || k.includes('REPAIR')) return 'service';
  if (k.includes('LEASE')) return 'lease';
  if (k.includes('PARTS')) return 'parts';
  if (k.includes('FINANC')) return 'finance';
  if (k.includes('BODY') || k.includes('COLLISION')) return 'body-shop';
  if (k.includes('SALE')) {
    if (/(^|_)NEW(_|$)/.test(k)) return 'sales-new';
    if (/(^|_)(USED|PRE_?OWNED|CPO)(_|$)/.test(k)) return 'sales-used';
    return 'sales';
  }
  return 'other';
}

/** Yes/no as exports write it (`true`, `Yes`, `1`, `Y`); anything else is `null`. */
export function parseYesNo(value: unknown): boolean | null {
  if (typeof value === 'boolean') return value;
  const raw = text(value)?.toLowerCase();
  if (raw === undefined) return null;
  if (['true', 'yes', 'y', '1'].includes(raw)) return true;
  if (['false', 'no', 'n', '0'].includes(raw)) return false;
  return null;
}

const NOT_NAMES = new Set(
  'team staff everyone everybody all manager managers sales service finance department the crew guys n/a na none'.split(
    ' ',
  ),
);

/** True when the text reads like a person's name: one to four capitalised words, no digits. */
export function looksLikeName(name: string): boolean {
  const words = name.split(/\s+/);
  if (words.length > 4) return false;
  return words.every((w) => /^\p{Lu}[\p{L}'’.-]*$/u.test(w) && !NOT_NAMES.has(w.toLowerCase()));
}

/**
 * Splits a free-text list of names ("Tristan, Brandon and Taylor") into names, keeping only
 * what reads like a person's name ("the whole team" and "N/A" are dropped).
 */
export function splitNames(value: unknown): string[] {
  const raw = text(value);
  if (raw === null) return [];
  return raw
    .split(/\s*(?:,|;|\/|&|\+|\n|\band\b|\by\b)\s*/i)
    .map((s) => s.trim())
    .filter((s) => s.length >= 2 && looksLikeName(s));
}
