/**
 * Importing review exports: the public surface of `src/import`. The CLI (`cli.ts`) is the
 * operator's entry point; `ingest`/`ingestStream` are the transactional write path that other
 * features (the sample loader) share.
 */
export {
  CONCURRENT_CHANGE_ATTEMPTS,
  ingest,
  ingestStream,
  refreshDerivations,
  retryConcurrentChanges,
} from './ingest.js';
export type { IngestInput, IngestResult, IngestStreamInput, ReviewBatches } from './ingest.js';
export { DERIVATION_VERSION, FALLBACK_TIME_ZONE, deriveReview, hashSource } from './derive.js';
export type { DeriveContext } from './derive.js';
export { runImport, STRICT_IMPORT_REFUSED, strictImportSummary } from './run.js';
export type { ImportOptions, ImportProgress, ImportSummary } from './run.js';
export { FILE_INVALID } from './internal/text.js';
export { FORMATS } from './types.js';
export type { FormatId, Rejection } from './types.js';
