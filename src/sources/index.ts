/**
 * Review sources that the service runs by itself (issue 30, docs/sources.md): the source model,
 * one run under its lease (`runSource`), the scheduler, the sync thread the service starts, and
 * the `dealer-reviews sync` command (`cli.ts`).
 */
export { configuredSources, sourceNames } from './configured.js';
export type { ConfiguredSources, SourceSettings } from './configured.js';
export { holderName, LEASE_MS, runSource } from './run.js';
export type { RunOptions, RunOutcome } from './run.js';
export { startSourceScheduler } from './scheduler.js';
export type { SchedulerOptions, SourceScheduler } from './scheduler.js';
export { startSyncWorker } from './worker.js';
export type { SyncWorker, SyncWorkerData } from './worker.js';
export type {
  ReviewSource,
  SourceContext,
  SourceResult,
  SourceRunCounts,
  SourceStatus,
} from './types.js';
export { importFetched } from './import.js';
export type { FetchedExport } from './import.js';
