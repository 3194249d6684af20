import type { Config } from '../config.js';
import type { Resolver } from '../websub/index.js';
import { GBP_SOURCE, gbpSource } from './gbp/source.js';
import { guardedClient } from './url/fetch.js';
import { urlSource, urlSourceName } from './url/source.js';
import type { ReviewSource } from './types.js';

/** What the configured sources are made from: the sync settings of the `Config`. */
export type SourceSettings = Config['sync'];

/** The configured sources, and the end of what they hold (the URL sources' guarded client). */
export interface ConfiguredSources {
  readonly sources: readonly ReviewSource[];
  /** Closes their connections; call it once no run is under way. */
  close(): Promise<void>;
}

/** The names of the sources the settings configure, in their order (builds nothing). */
export function sourceNames(settings: SourceSettings): string[] {
  const gbp = settings.gbp === null ? [] : [GBP_SOURCE];
  return [...gbp, ...settings.urls.map((url) => urlSourceName(url))];
}

/**
 * The sources the settings configure, in a fixed order: Google Business Profile (`GBP_*`), then
 * each watched export URL (`SYNC_URLS`), all of them through one guarded client (`resolve`:
 * the system's resolver unless a test gives one).
 */
export function configuredSources(settings: SourceSettings, resolve?: Resolver): ConfiguredSources {
  const gbp = settings.gbp === null ? [] : [gbpSource(settings.gbp)];
  if (settings.urls.length === 0) return { sources: gbp, close: async () => {} };
  const client = guardedClient(settings.allowCidrs, resolve);
  return {
    sources: [...gbp, ...settings.urls.map((url) => urlSource(url, client))],
    close: () => client.close(),
  };
}
