/** Published data versions: the public surface of `src/snapshot`. */
export { buildVersion, prepareDocument } from './build.js';
export type { BuildOptions, BuiltDocument, BuiltVersion } from './build.js';
export { createLocalBuilder } from './builder.js';
export type { Builder, InsightsSource, LocalBuilderOptions } from './builder.js';
export { startPublisher } from './publisher.js';
export type { Publisher, PublisherOptions } from './publisher.js';
export { addDocumentCodings, buildSnapshot, openSnapshot } from './snapshot.js';
export type { SnapshotOptions } from './snapshot.js';
export type { ChangeEvent, Published, Representation, ResponseCache, Snapshot } from './types.js';
