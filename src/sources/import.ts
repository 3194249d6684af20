import { runImport, type FormatId } from '../import/index.js';
import type { SourceContext, SourceResult } from './types.js';

/** A file a source fetched, to import. */
export interface FetchedExport {
  path: string;
  /** Its format, or undefined to detect it as `import` does. */
  format?: FormatId;
  /**
   * The file holds every review of the source (a full pass): the source's stored reviews it no
   * longer holds are removed (`import --prune`: the change feed tells of each removal).
   */
  complete: boolean;
  /** Where the next incremental run resumes; null keeps the stored one. */
  cursor: string | null;
}

/**
 * Imports what a source fetched through the import's one path (`runImport`): the same
 * validation, derivation and moderation (a review hidden with `remove` stays hidden), committed
 * in one transaction; the publisher then publishes it (versions, feeds, WebSub, MCP). A dry run
 * commits nothing.
 */
export async function importFetched(
  ctx: SourceContext,
  fetched: FetchedExport,
): Promise<SourceResult> {
  const report = await runImport(ctx.store, {
    path: fetched.path,
    ...(fetched.format && { format: fetched.format }),
    prune: fetched.complete,
    dryRun: ctx.dryRun,
    now: new Date(ctx.now).toISOString(),
  });
  return { report, full: fetched.complete, cursor: fetched.cursor };
}
