/**
 * A data version's life on the service's thread: `live` (swapped in, its follow-up documents
 * still to come: the previous version's stay meanwhile) → `complete` (every follow-up document
 * in place) → `superseded` (a newer version went live) → `released` (`release.ts`). Holds the
 * current snapshot, swaps each version and document in with one assignment, and announces each
 * change.
 */
import { DOCUMENTS, type DocumentId } from '../catalogue.js';
import type { Logger } from '../logger.js';
import type { BuiltDocument, BuiltVersion } from './build.js';
import type { AspectIndexData } from '../reviews/aspect-index.js';
import type { Builder, CodingsEvent } from './lifecycle.js';
import {
  openSnapshot,
  restoreDocument,
  type LiveSnapshot,
  type SnapshotOptions,
} from './snapshot.js';
import type { ChangeEvent, Snapshot } from './types.js';

/** Where the current version is in its life on the service's thread. */
export type LivePhase = 'live' | 'complete';

function changedPaths(before: Snapshot, after: Snapshot): string[] {
  const paths = new Set([...before.representations.keys(), ...after.representations.keys()]);
  return [...paths].filter(
    (p) => before.representations.get(p)?.etag !== after.representations.get(p)?.etag,
  );
}

export class LiveVersions {
  private snapshot: LiveSnapshot | null = null;
  private readonly listeners = new Set<(e: ChangeEvent) => void>();
  /** The documents still to follow the current version (`live` while any), and who waits. */
  private awaiting: Set<DocumentId>;
  private readonly waiters: (() => void)[] = [];

  constructor(
    builder: Builder,
    private readonly options: SnapshotOptions & { logger: Logger; follows: readonly DocumentId[] },
  ) {
    this.awaiting = new Set(options.follows);
    builder.onDocument((version, doc, aspects) => this.documentArrived(version, doc, aspects));
    builder.onCodings?.((event) => this.codingsArrived(event));
  }

  current(): LiveSnapshot {
    return this.snapshot!;
  }

  phase(): LivePhase {
    return this.awaiting.size > 0 ? 'live' : 'complete';
  }

  onChange(listener: (event: ChangeEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Resolves once the current version is `complete`. */
  settled(): Promise<void> {
    if (this.phase() === 'complete') return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /**
   * → `live`: a built version goes live (unless it is the current one); documents it does not
   * have yet (the insights) stay until theirs arrive. The version before it is `superseded`.
   */
  goLive(built: BuiltVersion, started: number): void {
    const previous = this.snapshot;
    if (previous && built.state.version === previous.state.version) return;
    const carried = new Map(
      [...(previous?.representations ?? [])].filter(
        ([path]) => !built.documents.some((d) => DOCUMENTS[d.id].path === path),
      ),
    );
    const next = openSnapshot(built, this.options, carried);
    this.snapshot = next;
    this.awaiting = new Set(this.options.follows);
    if (!previous) return;
    const changed = changedPaths(previous, next);
    this.options.logger.info(
      { version: next.state.version, changed, ms: Math.round(performance.now() - started) },
      'published a new data version',
    );
    this.announce({ version: next.state.version, changed, snapshot: next });
  }

  /**
   * `live` → `complete` once the last follow-up document of the current version is in. The lists
   * of what each review is about come with the insights, and only for this version: a version
   * whose own have not come has none (the previous version's are never carried).
   */
  private documentArrived(version: number, doc: BuiltDocument, aspects?: AspectIndexData): void {
    const live = this.snapshot;
    if (!live || live.state.version !== version) return; // a newer version is coming
    const rep = restoreDocument(doc);
    const next = live.withDocument(DOCUMENTS[doc.id].path, rep, this.options, aspects);
    this.snapshot = next;
    const changed = changedPaths(live, next);
    if (changed.length > 0) {
      this.options.logger.info(
        { version, document: doc.id },
        'published a document of the data version',
      );
      this.announce({ version, changed, snapshot: next });
    }
    this.awaiting.delete(doc.id);
    if (this.awaiting.size === 0) for (const resolve of this.waiters.splice(0)) resolve();
  }

  /** The codings that followed a document of the current version are served from now on. */
  private codingsArrived({ version, id, codings }: CodingsEvent): void {
    const live = this.snapshot;
    if (live?.state.version === version) live.addCodings(id, codings);
  }

  private announce(event: ChangeEvent): void {
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch (err) {
        this.options.logger.error({ err }, 'change listener failed');
      }
    }
  }
}
