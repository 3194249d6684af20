/**
 * The read side of an import: its input files opened one after the other, their rows mapped and
 * validated into batches of reviews, with the tally of rejections, duplicates and hidden reviews
 * and the fraction of the input read so far.
 */
import type { Business } from '../domain/business.js';
import type { ReviewSource, Source } from '../domain/review.js';
import { reviewDateWindow, reviewSourceAsOf } from '../domain/review-dates.js';
import { reviewId } from '../domain/ids.js';
import { reviewKey, type ReviewKey } from '../store/index.js';
import { FALLBACK_TIME_ZONE } from './derive.js';
import { openReader, type InputFile } from './inputs.js';
import { readTextFile, type TextDocument } from './internal/text.js';
import type { FormatId, FormatReader, MappedRow, Rejection, RowContext } from './types.js';
import { validateRow, type RowSchema } from './validate.js';

const BATCH = 1000;

export interface Opened {
  file: InputFile;
  doc: TextDocument;
  reader: FormatReader;
  lines: number;
}

function countLines(bytes: Buffer): number {
  let n = 1;
  for (let i = bytes.indexOf(0x0a); i !== -1; i = bytes.indexOf(0x0a, i + 1)) n++;
  return n;
}

export async function open(file: InputFile, format: FormatId | undefined): Promise<Opened> {
  const doc = await readTextFile(file.path);
  return { file, doc, reader: openReader(doc, format), lines: countLines(doc.bytes) };
}

/** Per-import bookkeeping: rejections, keys seen, counts. */
export class Tally {
  readonly rejected: Rejection[] = [];
  readonly rejectedKeys: ReviewKey[] = [];
  readonly firstRow = new Map<string, string>();
  readonly warnings: string[] = [];
  rows = 0;
  localTimes = false;
  /** Rows of reviews an operator hid (`dealer-reviews remove`): written, still not published. */
  hidden = 0;

  constructor(
    readonly multiFile: boolean,
    private readonly hiddenIds: ReadonlySet<string>,
  ) {}

  /** Counts a valid row whose review is hidden. */
  noteHidden(review: ReviewSource): void {
    if (this.hiddenIds.size === 0) return;
    if (this.hiddenIds.has(reviewId(review.source, review.sourceReviewId))) this.hidden++;
  }

  reject(r: Rejection, file: InputFile, key: ReviewKey | null): void {
    this.rejected.push(this.multiFile ? { ...r, file: file.label } : r);
    if (key) this.rejectedKeys.push(key);
  }

  /** The public ids of every review the input held: its valid rows and its rejected ones. */
  presentIds(): Set<string> {
    const ids = new Set<string>();
    for (const k of this.firstRow.keys()) {
      const cut = k.indexOf('\u0000');
      ids.add(reviewId(k.slice(0, cut), k.slice(cut + 1)));
    }
    for (const k of this.rejectedKeys) ids.add(reviewId(k.source, k.sourceReviewId));
    return ids;
  }

  /** Records a valid row's key; returns the earlier row holding it, if any. */
  claim(review: ReviewSource, row: number, file: InputFile): string | null {
    const k = reviewKey(review.source, review.sourceReviewId);
    const earlier = this.firstRow.get(k);
    if (earlier !== undefined) return earlier;
    this.firstRow.set(k, this.multiFile ? `${row} of ${file.label}` : String(row));
    return null;
  }
}

/** How far a file has been read: the line reached and, where the format knows it, the byte. */
type Position = Pick<MappedRow, 'line' | 'end'>;

async function* batchesOf(
  opened: Opened,
  ctx: RowContext,
  schema: RowSchema,
  tally: Tally,
  progress: (at: Position) => void,
): AsyncGenerator<ReviewSource[]> {
  const checkUtf8 = opened.doc.invalidLines.length > 0;
  let batch: ReviewSource[] = [];
  for (const mapped of opened.reader.rows(ctx)) {
    tally.rows++;
    const result = validateRow(mapped, schema, checkUtf8);
    if (!result.ok) {
      tally.reject(result.rejection, opened.file, mapped.key);
      continue;
    }
    const earlier = tally.claim(result.review, mapped.row, opened.file);
    if (earlier !== null) {
      const where = mapped.line === null ? {} : { line: mapped.line };
      const field = 'fields' in mapped ? (mapped.fields.sourceReviewId ?? 'sourceReviewId') : 'id';
      const reason = `duplicate of row ${earlier} (the first is imported)`;
      tally.reject({ row: mapped.row, ...where, field, reason }, opened.file, null);
      continue;
    }
    tally.noteHidden(result.review);
    batch.push(result.review);
    if (batch.length >= BATCH) {
      progress(mapped);
      yield batch;
      batch = [];
    }
  }
  progress({ line: opened.lines, end: opened.file.bytes });
  if (batch.length > 0) yield batch;
}

/** Reads every input file in turn, as batches of validated rows, tracking progress. */
export class BatchSource {
  fraction = 0;
  private bytesBefore = 0;
  private readonly totalBytes: number;

  constructor(
    private readonly inputs: readonly InputFile[],
    private readonly first: Opened,
    private readonly tally: Tally,
    private readonly defaultSource: Source | null,
    private readonly now: string,
  ) {
    this.totalBytes = inputs.reduce((n, f) => n + f.bytes, 0) || 1;
  }

  async *batches(inForce: Business | null): AsyncGenerator<ReviewSource[]> {
    const timeZone = inForce?.timeZone ?? FALLBACK_TIME_ZONE;
    const ctx: RowContext = {
      timeZone,
      defaultSource: this.defaultSource,
      noteLocalTime: () => (this.tally.localTimes = true),
    };
    // Tomorrow in the zone of the business in force (UTC before any profile is imported).
    const schema = reviewSourceAsOf(reviewDateWindow(this.now, timeZone));
    for (let i = 0; i < this.inputs.length; i++) {
      const opened = i === 0 ? this.first : await open(this.inputs[i]!, this.first.reader.format);
      // Where the row ends in the file (JSON), else the share of the file's lines before it.
      const setPosition = (at: Position): void => {
        const bytes = at.end ?? (opened.file.bytes * (at.line ?? 0)) / opened.lines;
        this.fraction = Math.min(1, (this.bytesBefore + bytes) / this.totalBytes);
      };
      yield* batchesOf(opened, ctx, schema, this.tally, setPosition);
      this.bytesBefore += opened.file.bytes;
    }
    if (this.tally.localTimes && inForce === null) {
      this.tally.warnings.push(
        'dates without an offset were read as UTC: no business profile (time zone) is set yet',
      );
    }
  }
}
