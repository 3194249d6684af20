/** Published data versions: the public surface of `src/snapshot`. */
export { buildSnapshot } from './build.js';
export type { BuildOptions } from './build.js';
export { startPublisher } from './publisher.js';
export type { Publisher, PublisherOptions } from './publisher.js';
export type { ChangeEvent, Published, Representation, ResponseCache, Snapshot } from './types.js';
