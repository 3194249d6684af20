import { setImmediate } from 'node:timers/promises';
import type { Business } from '../domain/business.js';
import type { Source } from '../domain/review.js';
import { isServiceError, ServiceError } from '../platform/errors.js';
import type { Store } from '../store/index.js';
import { BatchSource, open, Tally, type Opened } from './batches.js';
import { checkBusiness } from './formats/business.js';
import { ingestStream, type IngestResult } from './ingest.js';
import { listInputs } from './inputs.js';
import { fileError } from './internal/text.js';
import type { FormatId, FormatReader, Rejection } from './types.js';

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
  /**
   * Told, once the input is read (also in a dry run), the public ids of every review it held,
   * imported or rejected (a review source records what it brought in).
   */
  onPresent?: (ids: Set<string>) => void;
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

/** The code of the error thrown inside the transaction to roll it back. */
const ROLLED_BACK = 'import_rolled_back';

/** Why an import rolled its transaction back, and what it had done by then. */
interface RollBack {
  why: 'strict' | 'dry-run';
  result: IngestResult;
}

/** Rolls the transaction back: `--strict` with rejections, or `--dry-run`. */
function rollBack(why: RollBack['why'], result: IngestResult): ServiceError {
  return new ServiceError(ROLLED_BACK, why, { data: { why, result } satisfies RollBack });
}

/** The code of an import that `--strict` refused: nothing was written. */
export const STRICT_IMPORT_REFUSED = 'import_strict_refused';

/** An import that `--strict` refused: nothing was written; `data` is its summary. */
function strictImportRefused(summary: ImportSummary): ServiceError {
  return new ServiceError(
    STRICT_IMPORT_REFUSED,
    `--strict: ${summary.rejected.length} rejected row(s); nothing was imported`,
    { data: summary },
  );
}

/** The summary of an import that `--strict` refused, or null for any other error. */
export function strictImportSummary(err: unknown): ImportSummary | null {
  return isServiceError(err, STRICT_IMPORT_REFUSED) ? (err.data as ImportSummary) : null;
}

function resolveBusiness(reader: FormatReader, tally: Tally): Business | undefined {
  if (reader.business === undefined) return undefined;
  const check = checkBusiness(reader.business);
  if (check.ok) return check.business;
  if (reader.format === 'business') {
    throw fileError(`invalid business profile: ${check.field}: ${check.reason}`);
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

/**
 * Imports a review export into the store: detects (or takes) the format, maps and validates
 * every row with the service's schemas, rejects bad rows with their row, field and reason, and
 * writes the rest in one transaction keyed on (source, sourceReviewId). A crash or kill before
 * the commit leaves the store as it was. With `strict`, any rejection throws
 * `STRICT_IMPORT_REFUSED` (its summary: `strictImportSummary`) and nothing is written.
 * File-level problems throw `FILE_INVALID`.
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
  const done = (result: IngestResult, committed: boolean): ImportSummary => {
    opts.onPresent?.(tally.presentIds());
    return summarize(result, tally, first, inputs.length, { committed, dryRun });
  };
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
        if (opts.strict && tally.rejected.length > 0) throw rollBack('strict', { ...result });
        if (dryRun) throw rollBack('dry-run', { ...result });
      },
    });
    return done(result, true);
  } catch (err) {
    if (!isServiceError(err, ROLLED_BACK)) throw err;
    const { why, result } = err.data as RollBack;
    if (why === 'dry-run') return done(result, false);
    const zero = { ...result, inserted: 0, updated: 0, unchanged: 0, pruned: 0, rederived: 0 };
    throw strictImportRefused(done(zero, false));
  }
}
