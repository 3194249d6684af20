import { extname } from 'node:path';
import { looksLikeBusiness } from './formats/business.js';
import { looksLikeCsvHeader } from './formats/csv.js';
import { looksLikeDealerRaterReview } from './formats/dealerrater.js';
import { looksLikeGoogleReview } from './formats/gbp.js';
import { looksLikePublishedReview } from './formats/reviews-json.js';
import {
  iterateArray,
  parseJsonAt,
  parseSpan,
  scanJsonRoot,
  type JsonSpan,
} from './internal/json-scan.js';
import { fileError, type TextDocument } from './internal/text.js';
import { asRecord } from './internal/values.js';
import type { FormatId } from './types.js';

const UNRECOGNISED =
  'unrecognised file: expected Google Business Profile reviews JSON, DealerRater JSON, a CSV export with rating and date columns, a reviews.json, or a business profile (use --format to say which)';

function classifyItem(item: unknown): FormatId | null {
  const r = asRecord(item);
  if (!r) return null;
  if (looksLikePublishedReview(r)) return 'reviews-json';
  if (looksLikeGoogleReview(r)) return 'gbp';
  if (looksLikeDealerRaterReview(r)) return 'dealerrater';
  return null;
}

function classifyArray(text: Buffer, span: JsonSpan): FormatId | 'empty' | null {
  const first = iterateArray(text, span).next();
  if (first.done) return 'empty';
  return classifyItem(parseJsonAt(first.value.text, first.value.line));
}

function detectJson(doc: TextDocument): FormatId | null {
  const root = scanJsonRoot(doc.bytes);
  if (root.kind === 'array') {
    const kind = classifyArray(doc.bytes, root.span);
    return kind === 'empty' ? 'gbp' : kind;
  }
  const m = root.members;
  if (m.has('Reviews') || m.has('DealerId')) return 'dealerrater';
  const reviews = m.get('reviews');
  if (reviews) {
    const kind = classifyArray(doc.bytes, reviews);
    if (kind !== 'empty') return kind;
    return m.has('business') ? 'reviews-json' : 'gbp';
  }
  if (m.has('business')) return 'business';
  const whole = asRecord(parseSpan(doc.bytes, { start: 0, end: doc.bytes.length, line: 1 }));
  return whole && looksLikeBusiness(whole) ? 'business' : null;
}

/**
 * Tells the format of an import file from its content (and a `.csv`/`.tsv` name): the shape of
 * the JSON document and of its first review, or a CSV header with rating and date columns.
 * An unrecognised file is a `FILE_INVALID` error that suggests `--format`.
 */
export function detectFormat(doc: TextDocument): FormatId {
  const ext = extname(doc.path).toLowerCase();
  if (ext === '.csv' || ext === '.tsv') return 'csv';
  const head = doc.bytes.find((c) => c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09);
  let format: FormatId | null = null;
  if (head === 0x7b || head === 0x5b) format = detectJson(doc);
  else if (looksLikeCsvHeader(doc.bytes)) format = 'csv';
  if (format === null) throw fileError(`${doc.path}: ${UNRECOGNISED}`);
  return format;
}
