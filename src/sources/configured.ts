import type { Config } from '../config.js';
import { gbpSource } from './gbp/source.js';
import type { ReviewSource } from './types.js';

/** What the configured sources are made from: the sync settings of the `Config`. */
export type SourceSettings = Config['sync'];

/**
 * The sources the settings configure, in a fixed order: Google Business Profile (`GBP_*`). The
 * watched export URLs (`SYNC_URLS`) are the next step of issue 30 (docs/sources.md, "Status").
 */
export function configuredSources(settings: SourceSettings): ReviewSource[] {
  return settings.gbp === null ? [] : [gbpSource(settings.gbp)];
}
