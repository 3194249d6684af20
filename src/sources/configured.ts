import type { Config } from '../config.js';
import type { ReviewSource } from './types.js';

/**
 * The variables a source's configuration reads, beside `DATABASE_URL` (what `dealer-reviews
 * sync` parses: a bad value of an unrelated variable of the service does not stop it).
 */
export const SOURCE_ENV_KEYS = ['SYNC_INTERVAL_SECONDS'] as const;

/** What the configured sources are made from: the sync settings of the `Config`. */
export type SourceSettings = Config['sync'];

/**
 * The sources the settings configure, in a fixed order. None yet: Google Business Profile
 * (`GBP_*`) and the watched export URLs (`SYNC_URLS`) are the next steps of issue 30
 * (docs/sources.md, "Status").
 */
export function configuredSources(settings: SourceSettings): ReviewSource[] {
  void settings;
  return [];
}
