/** Published data versions, from build to release: the public surface of `src/snapshot`. */
export { buildVersion, prepareDocument } from './build.js';
export type { BuildOptions, BuiltDocument, BuiltVersion } from './build.js';
export { VersionLifecycle } from './lifecycle.js';
export type {
  Builder,
  BuildRequest,
  CodingsEvent,
  DocumentListener,
  InsightsOutput,
  InsightsSource,
  VersionLifecycleOptions,
  VersionPhase,
} from './lifecycle.js';
export { startPublisher } from './publisher.js';
export { startReleases } from './release.js';
export type { Releases } from './release.js';
export type { Publisher, PublisherOptions } from './publisher.js';
export { buildSnapshot, openSnapshot } from './snapshot.js';
export type { SnapshotOptions } from './snapshot.js';
export type { ChangeEvent, Published, Representation, ResponseCache, Snapshot } from './types.js';
export type { AspectIndexData } from '../reviews/aspect-index.js';
