import { isServiceError, ServiceError } from '../platform/errors.js';
import type { Source } from '../domain/review.js';
import type { ReviewKey } from '../store/index.js';

/** The import formats the CLI reads. */
export const FORMATS = ['gbp', 'dealerrater', 'csv', 'reviews-json', 'business'] as const;
export type FormatId = (typeof FORMATS)[number];

/** A row the import skipped, and why. `row` is 1-based; 0 is the file's business record. */
export interface Rejection {
  row: number;
  /** The field as the input file names it (`starRating`, a CSV header, `Employees.0.Name`). */
  field: string;
  reason: string;
  /** The line of the file the row starts on, when the format has lines. */
  line?: number;
  /** The file, when a directory of several files is imported. */
  file?: string;
}

/** What a format needs to know to map a row. */
export interface RowContext {
  /** IANA zone for dates written without an offset: the business's, or UTC when none is set. */
  timeZone: string;
  /** The source for rows that do not name one (CSV `--source`). */
  defaultSource: Source | null;
  /** Called when a row's date had no offset and was read in `timeZone`. */
  noteLocalTime(): void;
}

/** Maps a path of the `ReviewSource` schema (`author.name`) to the input's own field name. */
export type FieldNames = Readonly<Record<string, string>>;

interface MappedBase {
  row: number;
  line: number | null;
  /** The byte offset just past the row, where the format knows it (JSON): the import's progress. */
  end?: number;
  /** The row as read, checked for invalid UTF-8 when the file had any. */
  raw: unknown;
  /** The upsert key, when the row names one (even if it is rejected). */
  key: ReviewKey | null;
}

/** A row mapped to the `ReviewSource` input shape, ready for validation. */
export interface MappedCandidate extends MappedBase {
  candidate: Record<string, unknown>;
  fields: FieldNames;
}

/** A row the format itself could not map (a wrong star word, an impossible date). */
export interface MappedRejection extends MappedBase {
  field: string;
  reason: string;
}

export type MappedRow = MappedCandidate | MappedRejection;

/** A parsed import file: the business record it carries, if any, and its rows. */
export interface FormatReader {
  format: FormatId;
  /** The raw business record (validated by the caller), for `reviews-json` and `business`. */
  business?: unknown;
  /** Figures the source reports about itself (GBP `averageRating`), shown, never stored. */
  reported?: Record<string, unknown>;
  /** Notes for the operator (ignored CSV columns, for instance). */
  warnings: string[];
  /** The rows, mapped one at a time as the import reads them. */
  rows(ctx: RowContext): Iterable<MappedRow>;
}

/** The code of a field-level rejection. */
export const FIELD_INVALID = 'import_field_invalid';

/**
 * A field-level rejection thrown by value parsers (`field: reason`, with the one issue naming the
 * field), caught by the format's row mapper (`rejectField`).
 */
export function fieldError(field: string, reason: string): ServiceError {
  return new ServiceError(FIELD_INVALID, `${field}: ${reason}`, {
    issues: [{ path: [field], code: FIELD_INVALID, message: reason }],
  });
}

/** Builds the rejection for a row that failed while mapping. */
export function rejectRow(base: MappedBase, field: string, reason: string): MappedRejection {
  return { ...base, field, reason };
}

/** The rejection of a row whose mapping threw a `fieldError`; any other error is thrown on. */
export function rejectField(base: MappedBase, err: unknown): MappedRejection {
  if (!isServiceError(err, FIELD_INVALID)) throw err;
  const issue = err.issues![0]!;
  return rejectRow(base, String(issue.path[0]), issue.message);
}
