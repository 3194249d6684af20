import { createHash } from 'node:crypto';
import type { Source } from '../../domain/review.js';
import type { ReviewKey } from '../../store/index.js';
import { detectDelimiter, parseCsv, type CsvRecord } from '../internal/csv-parse.js';
import { fileError, type TextDocument } from '../internal/text.js';
import {
  parseDateTime,
  parseDepartment,
  parseLooseRating,
  parseOptionalDateTime,
  parseYesNo,
  splitNames,
} from '../internal/values.js';
import { fieldError, rejectField, rejectRow } from '../types.js';
import type { FieldNames, FormatReader, MappedRow, RowContext } from '../types.js';
import {
  CSV_ALIASES,
  mapColumns,
  mapSourceName,
  type ColumnMap,
  type CsvField,
} from './csv-columns.js';

const REQUIRED: readonly CsvField[] = ['rating', 'date'];

interface CsvLayout {
  headers: string[];
  map: ColumnMap;
  fields: FieldNames;
}

function fieldNamesFor(headers: readonly string[], map: ColumnMap): FieldNames {
  const h = (f: CsvField): string => {
    const i = map.columns[f];
    return i === undefined ? `(${f})` : headers[i]!;
  };
  const author = map.columns.author !== undefined ? h('author') : h('authorFirst');
  return {
    source: h('source'),
    sourceReviewId: h('id'),
    sourceUrl: h('url'),
    reviewRating: h('rating'),
    'reviewRating.ratingValue': h('rating'),
    name: h('title'),
    reviewBody: h('text'),
    inLanguage: h('language'),
    author,
    'author.name': author,
    datePublished: h('date'),
    dateModified: h('updated'),
    taggedStaff: h('staff'),
    ownerResponse: h('response'),
    'ownerResponse.text': h('response'),
    'ownerResponse.dateModified': h('responseDate'),
  };
}

function layoutOf(doc: TextDocument, header: CsvRecord | undefined): CsvLayout {
  if (!header) throw fileError(`${doc.path} is empty: nothing to import`);
  const headers = header.fields;
  const map = mapColumns(headers);
  const missing = REQUIRED.filter((f) => map.columns[f] === undefined);
  if (map.columns.author === undefined && map.columns.authorFirst === undefined) {
    missing.push('author');
  }
  if (missing.length > 0) {
    const detail = missing.map((f) => `${f} (${CSV_ALIASES[f].join('|')})`).join('; ');
    throw fileError(`${doc.path}: CSV header lacks required columns: ${detail}`);
  }
  return { headers, map, fields: fieldNamesFor(headers, map) };
}

function cellOf(fields: readonly string[], map: ColumnMap, f: CsvField): string | null {
  const i = map.columns[f];
  if (i === undefined) return null;
  const v = fields[i]?.trim();
  return v === undefined || v === '' ? null : v;
}

/**
 * The `sourceReviewId` of a row without an id: a hash of (source, date as written, author,
 * text), so re-importing the same export finds the same review. The date is hashed as written,
 * not as an instant, so setting the business's time zone later does not change the ids.
 */
export function contentId(
  source: string,
  date: string,
  author: string,
  body: string | null,
): string {
  const digest = createHash('sha256')
    .update(JSON.stringify([source, date, author, body ?? '']))
    .digest('hex');
  return `csv-${digest.slice(0, 32)}`;
}

function sourceOf(
  cell: string | null,
  fallback: Source | null,
  field: string,
): { source: string; prefix: string } {
  if (cell === null) return { source: fallback ?? 'other', prefix: '' };
  const mapped = mapSourceName(cell);
  const slug = cell
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
  if (!mapped.known && slug === '') throw fieldError(field, 'not a source name');
  return { source: mapped.source, prefix: mapped.known ? '' : `${slug}:` };
}

function authorOf(fields: readonly string[], map: ColumnMap): string | null {
  const full = cellOf(fields, map, 'author');
  if (full !== null) return full;
  const parts = [cellOf(fields, map, 'authorFirst'), cellOf(fields, map, 'authorLast')];
  const joined = parts.filter((p) => p !== null).join(' ');
  return joined === '' ? null : joined;
}

function mapRecord(
  rec: CsvRecord,
  row: number,
  layout: CsvLayout,
  raw: unknown,
  ctx: RowContext,
): MappedRow {
  const { map, fields: names } = layout;
  const c = (f: CsvField): string | null => cellOf(rec.fields, map, f);
  const base = { row, line: rec.line, raw };
  let key: ReviewKey | null = null;
  try {
    const { source, prefix } = sourceOf(c('source'), ctx.defaultSource, names.source!);
    const author = authorOf(rec.fields, map);
    const date = c('date');
    const body = c('text');
    const id = c('id');
    const sourceReviewId =
      id !== null
        ? `${prefix}${id}`
        : contentId(`${prefix}${source}`, date ?? '', author ?? '', body);
    key = { source, sourceReviewId };
    if (author === null)
      return rejectRow({ ...base, key }, names['author.name']!, 'missing author');
    const response = c('response');
    const candidate = {
      source,
      sourceReviewId,
      sourceUrl: c('url'),
      reviewRating: { ratingValue: parseLooseRating(c('rating'), names.reviewRating!) },
      name: c('title'),
      reviewBody: body,
      inLanguage: c('language'),
      author: { name: author },
      datePublished: parseDateTime(date, names.datePublished!, ctx),
      dateModified: parseOptionalDateTime(c('updated'), names.dateModified!, ctx),
      department: parseDepartment(c('department')),
      recommendsDealer: parseYesNo(c('recommend')),
      taggedStaff: splitNames(c('staff')).map((name) => ({ name, via: 'tagged' })),
      ownerResponse:
        response === null
          ? null
          : {
              text: response,
              dateModified: parseOptionalDateTime(
                c('responseDate'),
                names['ownerResponse.dateModified']!,
                ctx,
              ),
            },
    };
    return { ...base, key, candidate, fields: names };
  } catch (err) {
    return rejectField({ ...base, key }, err);
  }
}

function extraCells(rec: CsvRecord, width: number): boolean {
  return rec.fields.slice(width).some((f) => f.trim() !== '');
}

/**
 * Reads a CSV export of a reputation tool. Columns are found through the alias map in
 * `csv-columns.ts` (rating, date and author are required); quoting follows RFC 4180; a UTF-8
 * byte-order mark is ignored; comma, semicolon or tab delimiters are detected from the header.
 */
export function readCsvReviews(doc: TextDocument): FormatReader {
  const delimiter = detectDelimiter(doc.bytes);
  const records = parseCsv(doc.bytes, delimiter);
  const layout = layoutOf(doc, records.next().value ?? undefined);
  const warnings: string[] = [];
  if (layout.map.ignored.length > 0) {
    warnings.push(`ignored CSV columns: ${layout.map.ignored.join(', ')}`);
  }
  const checkUtf8 = doc.invalidLines.length > 0;
  return {
    format: 'csv',
    warnings,
    *rows(ctx) {
      if (layout.map.columns.source === undefined && ctx.defaultSource === null) {
        warnings.push('no source column and no --source: rows are imported with source "other"');
      }
      let row = 0;
      for (const rec of records) {
        row++;
        const raw = checkUtf8
          ? Object.fromEntries(layout.headers.map((h, i) => [h, rec.fields[i] ?? '']))
          : null;
        if (extraCells(rec, layout.headers.length)) {
          const why = `has ${rec.fields.length} fields but the header has ${layout.headers.length}`;
          yield rejectRow({ row, line: rec.line, raw, key: null }, '(row)', why);
          continue;
        }
        yield mapRecord(rec, row, layout, raw, ctx);
      }
    },
  };
}

/** Does the first line look like a CSV header this importer understands (detection)? */
export function looksLikeCsvHeader(bytes: Buffer): boolean {
  try {
    const first = parseCsv(bytes, detectDelimiter(bytes)).next().value;
    if (!first) return false;
    const { columns } = mapColumns(first.fields);
    return columns.rating !== undefined && columns.date !== undefined;
  } catch {
    return false;
  }
}
