import type { ReviewSource } from '../domain/review.js';
import type { reviewSourceAsOf } from '../domain/review-dates.js';
import { asRecord } from './internal/values.js';
import type { FieldNames, MappedRow, Rejection } from './types.js';
import { own } from '../platform/dict.js';

/** The schema rows are validated with: `ReviewSource` and the dates window of the import. */
export type RowSchema = ReturnType<typeof reviewSourceAsOf>;

/** The outcome of validating one mapped row. */
export type RowResult = { ok: true; review: ReviewSource } | { ok: false; rejection: Rejection };

/** How many levels of a path a rejection names; deeper ones end in "…". */
const MAX_PATH_PARTS = 8;

interface Visit {
  value: unknown;
  key: string | null;
  parent: Visit | null;
}

/**
 * The path, in the file's own names, of the first string in `value` holding U+FFFD. Walked with
 * a stack of its own, not by recursion: a row may nest thousands of levels deep.
 */
function findReplacement(value: unknown): string | null {
  const stack: Visit[] = [{ value, key: null, parent: null }];
  for (let at = stack.pop(); at !== undefined; at = stack.pop()) {
    const v = at.value;
    if (typeof v === 'string') {
      if (v.includes('\uFFFD')) return pathOf(at);
      continue;
    }
    // Children in reverse, so that the first in the document is visited first.
    if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--)
        stack.push({ value: v[i], key: String(i), parent: at });
      continue;
    }
    const rec = asRecord(v);
    if (!rec) continue;
    const entries = Object.entries(rec);
    for (let i = entries.length - 1; i >= 0; i--)
      stack.push({ value: entries[i]![1], key: entries[i]![0], parent: at });
  }
  return null;
}

function pathOf(leaf: Visit): string {
  const parts: string[] = [];
  for (let v: Visit | null = leaf; v !== null; v = v.parent) if (v.key !== null) parts.push(v.key);
  parts.reverse();
  if (parts.length === 0) return '(row)';
  return parts.length > MAX_PATH_PARTS
    ? `${parts.slice(0, MAX_PATH_PARTS).join('.')}.…`
    : parts.join('.');
}

/** Maps a path of the `ReviewSource` schema to the file's field name, by longest known prefix. */
function fieldName(path: readonly PropertyKey[], names: FieldNames): string {
  const parts = path.map(String);
  for (let n = parts.length; n > 0; n--) {
    const mapped = own(names, parts.slice(0, n).join('.'));
    if (mapped !== undefined) return [mapped, ...parts.slice(n)].join('.');
  }
  return parts.join('.') || '(row)';
}

function valueAt(obj: unknown, path: readonly PropertyKey[]): unknown {
  let cur: unknown = obj;
  for (const p of path)
    cur = Array.isArray(cur)
      ? cur[Number(p)]
      : (() => {
          const record = asRecord(cur);
          return record ? own(record, String(p)) : undefined;
        })();
  return cur;
}

function reasonOf(message: string, code: string, value: unknown): string {
  if (code === 'too_big' && typeof value === 'string') {
    return `${message} (got ${value.length.toLocaleString('en-US')})`;
  }
  return message;
}

const INVALID_UTF8 = 'holds bytes that are not valid UTF-8 (save the export as UTF-8)';

/**
 * Validates a mapped row with the service's own `ReviewSource` schema and its plausible-dates
 * rule (`schema`, from `reviewSourceAsOf`), so every imported row is publishable. A rejection
 * names the row, the field as the file names it, and the reason; rows of a file with invalid
 * UTF-8 are rejected when they hold a replaced byte (`checkUtf8`).
 */
export function validateRow(m: MappedRow, schema: RowSchema, checkUtf8: boolean): RowResult {
  const where = { row: m.row, ...(m.line !== null ? { line: m.line } : {}) };
  if (checkUtf8) {
    const hit = findReplacement(m.raw);
    if (hit !== null)
      return { ok: false, rejection: { ...where, field: hit, reason: INVALID_UTF8 } };
  }
  if ('reason' in m)
    return { ok: false, rejection: { ...where, field: m.field, reason: m.reason } };
  const parsed = schema.safeParse(m.candidate);
  if (parsed.success) return { ok: true, review: parsed.data };
  const issue = parsed.error.issues[0]!;
  const reason = reasonOf(issue.message, issue.code, valueAt(m.candidate, issue.path));
  return { ok: false, rejection: { ...where, field: fieldName(issue.path, m.fields), reason } };
}
