import { setImmediate } from 'node:timers/promises';
import type { Business } from '../domain/business.js';
import {
  reviewDateWindow,
  reviewSourceAsOf,
  type ReviewSource,
  type Source,
} from '../domain/review.js';
import { reviewId } from '../domain/ids.js';
import { reviewKey, type ReviewKey, type Store } from '../store/index.js';
import { FALLBACK_TIME_ZONE } from './derive.js';
import { checkBusiness } from './formats/business.js';
import { ingestStream, type IngestResult } from './ingest.js';
import { listInputs, openReader, type InputFile } from './inputs.js';
import { FileError, readTextFile, type TextDocument } from './internal/text.js';
import type { FormatId, FormatReader, MappedRow, Rejection, RowContext } from './types.js';
import { validateRow, type RowSchema } from './validate.js';

/** What to import and how. */
export interface ImportOptions {
  /** A file, or a directory (Google Takeout) whose `reviews*.json` files are imported together. */
  path: string;
  /** Forces a format instead of detecting it. */
  format?: FormatId;
  /** Any rejected row fails the import and nothing is written. */
  strict?: boolean;
  /** Removes stored reviews of the sources present in the file that the file does not hold. */
  prune?: boolean;
  /** Does everything but commit: the summary says what would change. */
  dryRun?: boolean;
  /** The source of CSV rows that do not name one. */
  defaultSource?: Source | null;
  /** The commit time; defaults to now. */
  now?: string;
  /** Called after each batch is written (not yet committed). */
  onProgress?: (progress: ImportProgress) => void;
}

/** How far an import has got: rows read and the fraction of the input's bytes behind them. */
export interface ImportProgress {
  rows: number;
  fraction: number;
}

/** The outcome of an import, printed by the CLI (`--json` prints it as is). */
export interface ImportSummary {
  inserted: number;
  updated: number;
  unchanged: number;
  rejected: Rejection[];
  pruned: number;
  /** Stored reviews whose public record changed because the business (roster, catalogue) did. */
  rederived: number;
  /** Rows of reviews an operator hid (`dealer-reviews remove`): kept hidden, never published. */
  hidden: number;
  businessChanged: boolean;
  /** The new data version, or `null` when nothing changed or nothing was committed. */
  version: number | null;
  committed: boolean;
  /** `--dry-run`: the counts say what the import would do; nothing was written. */
  dryRun: boolean;
  format: FormatId;
  files: number;
  /** Rows read from the input (imported or rejected). */
  rows: number;
  warnings: string[];
  /** Figures the source reports about itself (GBP `averageRating`), never stored. */
  reported?: Record<string, unknown>;
}

/** Thrown inside the transaction to roll it back: `--strict` with rejections, or `--dry-run`. */
class Abort extends Error {
  constructor(
    readonly why: 'strict' | 'dry-run',
    readonly result: IngestResult,
  ) {
    super(why);
  }
}

/** An import that `--strict` refused: nothing was written. */
export class StrictImportError extends Error {
  override name = 'StrictImportError';
  constructor(readonly summary: ImportSummary) {
    super(`--strict: ${summary.rejected.length} rejected row(s); nothing was imported`);
  }
}

const BATCH = 1000;

interface Opened {
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

async function open(file: InputFile, format: FormatId | undefined): Promise<Opened> {
  const doc = await readTextFile(file.path);
  return { file, doc, reader: openReader(doc, format), lines: countLines(doc.bytes) };
}

/** Per-import bookkeeping: rejections, keys seen, counts. */
class Tally {
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

function resolveBusiness(reader: FormatReader, tally: Tally): Business | undefined {
  if (reader.business === undefined) return undefined;
  const check = checkBusiness(reader.business);
  if (check.ok) return check.business;
  if (reader.format === 'business') {
    throw new FileError(`invalid business profile: ${check.field}: ${check.reason}`);
  }
  tally.rejected.push({ row: 0, field: check.field, reason: check.reason });
  return undefined;
}

function summarize(
  result: IngestResult,
  tally: Tally,
  first: Opened,
  files: number,
  outcome: { committed: boolean; dryRun: boolean },
): ImportSummary {
  const warnings = [...first.reader.warnings, ...tally.warnings];
  if (first.doc.invalidLines.length > 0) {
    const lines = first.doc.invalidLines;
    const shown = lines.slice(0, 10).join(', ') + (lines.length > 10 ? ', ...' : '');
    warnings.push(`the file is not valid UTF-8 on ${lines.length} line(s): ${shown}`);
  }
  return {
    inserted: result.inserted,
    updated: result.updated,
    unchanged: result.unchanged,
    rejected: tally.rejected,
    pruned: result.pruned,
    rederived: result.rederived,
    hidden: tally.hidden,
    businessChanged: result.businessChanged,
    version: outcome.committed ? (result.state?.version ?? null) : null,
    committed: outcome.committed,
    dryRun: outcome.dryRun,
    format: first.reader.format,
    files,
    rows: tally.rows,
    warnings,
    ...(first.reader.reported ? { reported: first.reader.reported } : {}),
  };
}

/** Reads every input file in turn, as batches of validated rows, tracking progress. */
class BatchSource {
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

/**
 * Imports a review export into the store: detects (or takes) the format, maps and validates
 * every row with the service's schemas, rejects bad rows with their row, field and reason, and
 * writes the rest in one transaction keyed on (source, sourceReviewId). A crash or kill before
 * the commit leaves the store as it was. With `strict`, any rejection throws
 * `StrictImportError` and nothing is written. File-level problems throw `FileError`.
 */
export async function runImport(store: Store, opts: ImportOptions): Promise<ImportSummary> {
  const inputs = await listInputs(opts.path);
  const multiFile = inputs.length > 1 || inputs[0]!.path !== opts.path;
  // The first file is read before the transaction: file errors never take the write lock.
  const first = await open(inputs[0]!, opts.format ?? (multiFile ? 'gbp' : undefined));
  const tally = new Tally(multiFile, await store.moderation.hiddenIds());
  const now = opts.now ?? new Date().toISOString();
  const source = new BatchSource(inputs, first, tally, opts.defaultSource ?? null, now);
  const dryRun = opts.dryRun ?? false;
  const done = (result: IngestResult, committed: boolean): ImportSummary =>
    summarize(result, tally, first, inputs.length, { committed, dryRun });
  try {
    const result = await ingestStream(store, {
      business: resolveBusiness(first.reader, tally),
      batches: (inForce) => source.batches(inForce),
      prune: opts.prune,
      alsoPresent: () => tally.rejectedKeys,
      now,
      onBatch: async (_result, rows) => {
        opts.onProgress?.({ rows, fraction: source.fraction });
        await setImmediate();
      },
      beforeCommit: (result) => {
        if (opts.strict && tally.rejected.length > 0) throw new Abort('strict', { ...result });
        if (dryRun) throw new Abort('dry-run', { ...result });
      },
    });
    return done(result, true);
  } catch (err) {
    if (!(err instanceof Abort)) throw err;
    if (err.why === 'dry-run') return done(err.result, false);
    const zero = { ...err.result, inserted: 0, updated: 0, unchanged: 0, pruned: 0, rederived: 0 };
    throw new StrictImportError(done(zero, false));
  }
}
