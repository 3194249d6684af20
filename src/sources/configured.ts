import type { Config } from '../config.js';
import { gbpSource } from './gbp/source.js';
import { guardedClient } from './url/fetch.js';
import { urlSource } from './url/source.js';
import type { ReviewSource } from './types.js';

/** What the configured sources are made from: the sync settings of the `Config`. */
export type SourceSettings = Config['sync'];

/**
 * The sources the settings configure, in a fixed order: Google Business Profile (`GBP_*`), then
 * each watched export URL (`SYNC_URLS`), all of them through one guarded client.
 */
export function configuredSources(settings: SourceSettings): ReviewSource[] {
  const sources = settings.gbp === null ? [] : [gbpSource(settings.gbp)];
  if (settings.urls.length === 0) return sources;
  const client = guardedClient(settings.allowCidrs);
  return [...sources, ...settings.urls.map((url) => urlSource(url, client))];
}
