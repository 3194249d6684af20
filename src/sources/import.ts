import { runImport, type FormatId } from '../import/index.js';
import { REMOVED_AT_SOURCE, type Reconciled } from '../store/index.js';
import type { SourceContext, SourceResult } from './types.js';

/** A file a source fetched, to import. */
export interface FetchedExport {
  path: string;
  /** Its format, or undefined to detect it as `import` does. */
  format?: FormatId;
  /**
   * The file holds every review of the source (a full pass): the reviews this source brought in
   * before that it no longer holds are removed at source.
   */
  complete: boolean;
  /** Where the next incremental run resumes; null keeps the stored one. */
  cursor: string | null;
}

/** The warning of a complete listing without any review. */
export const EMPTY_LISTING = 'the source listed no review at all: nothing was removed';

/** One log line per run that removed (or published again) reviews, naming them. */
function logReconciled(ctx: SourceContext, done: Reconciled): void {
  const source = ctx.name;
  const dryRun = ctx.dryRun;
  if (done.removed.length > 0) {
    const removed = done.removed.length;
    const line = { source, removed, ids: done.removed, reason: REMOVED_AT_SOURCE, dryRun };
    ctx.logger.info(line, 'reviews removed at source');
  }
  if (done.restored.length > 0) {
    const restored = done.restored.length;
    ctx.logger.info({ source, restored, ids: done.restored, dryRun }, 'reviews listed again');
  }
}

/**
 * Imports what a source fetched through the import's one path (`runImport`): the same
 * validation, derivation and moderation (a review hidden with `remove` stays hidden), committed
 * in one transaction; the publisher then publishes it (versions, feeds, WebSub, MCP). Then
 * reconciles what the source listed with what it brought in before (`store.sources.reconcile`):
 * a complete file removes, through the moderation path, the reviews of this source (never of
 * another, whatever their `source`) that it no longer holds, and publishes again those it had
 * removed and holds again. A dry run commits nothing; its report says what would change.
 */
export async function importFetched(
  ctx: SourceContext,
  fetched: FetchedExport,
): Promise<SourceResult> {
  let ids = new Set<string>();
  const at = new Date(ctx.now).toISOString();
  const report = await runImport(ctx.store, {
    path: fetched.path,
    ...(fetched.format && { format: fetched.format }),
    dryRun: ctx.dryRun,
    now: at,
    onPresent: (present) => (ids = present),
  });
  // A complete listing with no review at all is taken for a mistake (an export emptied by
  // accident, an answer without reviews): it removes nothing.
  const empty = fetched.complete && ids.size === 0;
  const listing = { ids, full: fetched.complete && !empty, at, dryRun: ctx.dryRun };
  const done = await ctx.store.sources.reconcile(ctx.name, listing);
  logReconciled(ctx, done);
  const warnings = empty ? [...report.warnings, EMPTY_LISTING] : report.warnings;
  return {
    report: {
      ...report,
      pruned: done.removed.length,
      version: done.state?.version ?? report.version,
      warnings,
    },
    full: fetched.complete,
    cursor: fetched.cursor,
    restored: done.restored.length,
  };
}
