import { Business, type BusinessInput } from '../../domain/business.js';
import { parseSpan, scanJsonRoot } from '../internal/json-scan.js';
import { fileError, type TextDocument } from '../internal/text.js';
import { asRecord } from '../internal/values.js';
import type { FormatReader } from '../types.js';

function slugify(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 64)
    .replace(/-+$/, '');
  return slug === '' ? 'staff' : slug;
}

function withStaffIds(staff: unknown): unknown {
  if (!Array.isArray(staff)) return staff;
  const used = new Set<string>();
  for (const s of staff) {
    const id = asRecord(s)?.id;
    if (typeof id === 'string') used.add(id);
  }
  return staff.map((s) => {
    const rec = asRecord(s);
    if (!rec || rec.id !== undefined || typeof rec.name !== 'string') return s;
    const stem = slugify(rec.name);
    let id = stem;
    for (let n = 2; used.has(id); n++) id = `${stem}-${n}`;
    used.add(id);
    return { ...rec, id };
  });
}

/**
 * Prepares a business record read from a file for the `Business` schema: staff without an `id`
 * (as a published `/reviews.json` may list them: names and roles only) get one from their name.
 */
export function normalizeBusinessInput(raw: unknown): unknown {
  const rec = asRecord(raw);
  if (!rec) return raw;
  return rec.staff === undefined ? rec : { ...rec, staff: withStaffIds(rec.staff) };
}

/** The outcome of validating a business record: the profile, or the first problem found. */
export type BusinessCheck =
  { ok: true; business: Business } | { ok: false; field: string; reason: string };

/** Validates a business record with the service's `Business` schema. */
export function checkBusiness(raw: unknown): BusinessCheck {
  const parsed = Business.safeParse(normalizeBusinessInput(raw) as BusinessInput);
  if (parsed.success) return { ok: true, business: parsed.data };
  const issue = parsed.error.issues[0]!;
  const path = ['business', ...issue.path.map(String)].join('.');
  return { ok: false, field: path, reason: issue.message };
}

/**
 * Reads a business profile file (`--format business`): the `Business` record itself, or
 * `{ "business": { ... } }`. It replaces the stored profile as a whole (roster and catalogue
 * included), which re-derives every review's mentions and local dates.
 */
export function readBusinessFile(doc: TextDocument): FormatReader {
  const root = scanJsonRoot(doc.bytes);
  if (root.kind !== 'object') throw fileError(`${doc.path}: a business profile is a JSON object`);
  const wrapped = root.members.get('business');
  const business =
    wrapped && !root.members.has('timeZone')
      ? parseSpan(doc.bytes, wrapped)
      : parseSpan(doc.bytes, { start: 0, end: doc.bytes.length, line: 1 });
  return { format: 'business', business, warnings: [], rows: () => [] };
}

/** Does this object look like a business profile (detection)? */
export function looksLikeBusiness(obj: Record<string, unknown>): boolean {
  return typeof obj.timeZone === 'string' && asRecord(obj.address) !== null;
}
