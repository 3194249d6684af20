import type { ReviewSource, reviewSourceAsOf } from '../domain/review.js';
import { asRecord } from './internal/values.js';
import type { FieldNames, MappedRow, Rejection } from './types.js';

/** The schema rows are validated with: `ReviewSource` and the dates window of the import. */
export type RowSchema = ReturnType<typeof reviewSourceAsOf>;

/** The outcome of validating one mapped row. */
export type RowResult = { ok: true; review: ReviewSource } | { ok: false; rejection: Rejection };

/** The path, in the file's own names, of the first string in `value` holding U+FFFD. */
function findReplacement(value: unknown, path: string): string | null {
  if (typeof value === 'string') return value.includes('\uFFFD') ? path || '(row)' : null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const hit = findReplacement(value[i], path ? `${path}.${i}` : String(i));
      if (hit !== null) return hit;
    }
    return null;
  }
  const rec = asRecord(value);
  if (!rec) return null;
  for (const [k, v] of Object.entries(rec)) {
    const hit = findReplacement(v, path ? `${path}.${k}` : k);
    if (hit !== null) return hit;
  }
  return null;
}

/** Maps a path of the `ReviewSource` schema to the file's field name, by longest known prefix. */
function fieldName(path: readonly PropertyKey[], names: FieldNames): string {
  const parts = path.map(String);
  for (let n = parts.length; n > 0; n--) {
    const mapped = names[parts.slice(0, n).join('.')];
    if (mapped !== undefined) return [mapped, ...parts.slice(n)].join('.');
  }
  return parts.join('.') || '(row)';
}

function valueAt(obj: unknown, path: readonly PropertyKey[]): unknown {
  let cur: unknown = obj;
  for (const p of path)
    cur = asRecord(cur)?.[String(p)] ?? (Array.isArray(cur) ? cur[Number(p)] : undefined);
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
    const hit = findReplacement(m.raw, '');
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
