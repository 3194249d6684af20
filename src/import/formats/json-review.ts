/**
 * The frame the JSON review formats (GBP, DealerRater) share: one item of a reviews array to a
 * candidate row (a non-object, a missing id and a field that fails to parse become rejections),
 * and the rows of a reviews array, read one item at a time.
 */
import type { Source } from '../../domain/review.js';
import { iterateArray, parseJsonAt, type JsonSpan } from '../internal/json-scan.js';
import type { TextDocument } from '../internal/text.js';
import { asRecord } from '../internal/values.js';
import { rejectField, rejectRow } from '../types.js';
import type { FieldNames, MappedRow, RowContext } from '../types.js';

/** Maps one item of a reviews array (its 1-based row, its line when known) to a candidate row. */
export type ReviewItemMapper = (
  raw: unknown,
  row: number,
  line: number | null,
  ctx: RowContext,
) => MappedRow;

/** What a JSON review format tells the shared frame. */
export interface JsonReviewFormat {
  source: Source;
  /** The review's id, `null` when it has none. */
  idOf(r: Record<string, unknown>): string | null;
  /** The field and reason of the rejection of a review without an id. */
  missingId(r: Record<string, unknown>): { field: string; reason: string };
  /** The candidate and its field names; throws a `fieldError` for a field that fails to parse. */
  map(
    r: Record<string, unknown>,
    id: string,
    ctx: RowContext,
  ): { candidate: Record<string, unknown>; fields: FieldNames };
}

/** The row mapper of a JSON review format. */
export function jsonReviewMapper(format: JsonReviewFormat): ReviewItemMapper {
  return (raw, row, line, ctx) => {
    const r = asRecord(raw);
    const base = { row, line, raw, key: null };
    if (!r) return rejectRow(base, '(row)', 'not a JSON object');
    const id = format.idOf(r);
    const key = id === null ? null : { source: format.source, sourceReviewId: id };
    const withKey = { ...base, key };
    if (id === null) {
      const missing = format.missingId(r);
      return rejectRow(withKey, missing.field, missing.reason);
    }
    try {
      const { candidate, fields } = format.map(r, id, ctx);
      return { ...withKey, candidate, fields };
    } catch (err) {
      return rejectField(withKey, err);
    }
  };
}

/** The rows of the reviews array at `span`, each item parsed and mapped as the import reaches it. */
export function* jsonReviewRows(
  doc: TextDocument,
  span: JsonSpan,
  map: ReviewItemMapper,
  ctx: RowContext,
): Iterable<MappedRow> {
  for (const item of iterateArray(doc.bytes, span)) {
    const row = map(parseJsonAt(item.text, item.line), item.index, item.line, ctx);
    yield { ...row, end: item.end };
  }
}
