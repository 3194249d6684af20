/**
 * The one protocol between the service's thread and the build worker: what the worker starts
 * with, the operations the service calls, and the events the worker sends of its own accord,
 * with their payload types. Both sides import this file (`index.ts` calls, `thread.ts` serves),
 * so the compiler checks each operation and event on both.
 */
import type { ThreadMemory } from '../platform/rpc.js';
import type {
  AspectIndexData,
  BuildRequest,
  BuiltDocument,
  BuiltVersion,
  CodingsEvent,
} from '../snapshot/index.js';

export type { BuildRequest, CodingsEvent };

/** What the build worker starts with (`workerData`). */
export interface BuildWorkerData {
  databaseUrl: string;
  baseUrl: string;
  /** Whether the WebSub hub runs (hub links in the topics). */
  hub: boolean;
  /** Load the sample dealership into an empty store (the service's first worker only). */
  loadSample: boolean;
  /** How long the follow-up work of a large version waits for `released` (`RELEASE_WAIT`). */
  releaseWait?: { ms: number; aboveBytes: number };
}

/** The operations the service's thread calls in the build worker. */
export interface BuildOperations {
  /** Opens the store (and loads the sample into an empty one when asked); answers once done. */
  ready(): Promise<null>;
  /** Builds the store's newest version; its follow-up work (codings, insights) is then sent. */
  build(request: BuildRequest): Promise<BuiltVersion>;
  /** How much the worker holds now. */
  memory(): ThreadMemory;
  /** The service's thread no longer holds the versions before `version`. */
  released(version: number): null;
  /** Closes the worker's store. */
  close(): Promise<null>;
}

/**
 * A document of a version that followed it (the insights), with what each review of the version
 * is about (`aspects`: per aspect and polarity, positions in `Uint32Array`s in shared memory, so
 * the service's thread receives 100,000 positions without parsing or copying them).
 */
export interface DocumentEvent {
  version: number;
  doc: BuiltDocument;
  aspects?: AspectIndexData;
}

/** The build worker is done with a version and its follow-up documents. */
export interface IdleEvent extends ThreadMemory {
  version: number;
}

/** A log line of the build worker, written by the service's logger. */
export interface LogEvent {
  level: 'info' | 'warn' | 'error';
  msg: string;
  [key: string]: unknown;
}

/** What the build worker sends of its own accord. */
export type BuildEvent =
  | { event: 'document'; payload: DocumentEvent }
  | { event: 'codings'; payload: CodingsEvent }
  | { event: 'idle'; payload: IdleEvent }
  | { event: 'log'; payload: LogEvent };
