import { DOCUMENTS, type DocumentId } from '../catalogue.js';
import type { Review } from '../domain/review.js';
import {
  restoreRepresentation,
  type Codings,
  type PreparedRepresentation,
} from '../representation/index.js';
import { ChangeIndex } from '../reviews/change-index.js';
import { AspectIndex, type AspectIndexData } from '../reviews/aspect-index.js';
import { SearchIndex } from '../reviews/search-index.js';
import type { Dataset } from '../store/index.js';
import {
  buildVersion,
  prepareDocument,
  type BuildOptions,
  type BuiltDocument,
  type BuiltVersion,
} from './build.js';
import { createResponseCache } from './response-cache.js';
import type { ResponseCache, Snapshot } from './types.js';

export interface SnapshotOptions {
  responseCache: { maxEntries: number; maxBytes: number };
}

/** A snapshot on the service's thread, over a built version's shared parts. */
class LiveSnapshot implements Snapshot {
  readonly state: BuiltVersion['state'];
  readonly business: BuiltVersion['business'];
  readonly aggregate: BuiltVersion['aggregate'];
  readonly views: BuiltVersion['views'];
  readonly changes: ChangeIndex;
  readonly responses: ResponseCache;

  constructor(
    private readonly built: BuiltVersion,
    readonly index: SearchIndex,
    private readonly reviewsBody: Buffer,
    readonly representations: ReadonlyMap<string, PreparedRepresentation>,
    options: SnapshotOptions,
    readonly aspects: AspectIndex | null = null,
  ) {
    this.state = built.state;
    this.business = built.business;
    this.aggregate = built.aggregate;
    this.views = built.views;
    this.changes = new ChangeIndex(built.changes);
    this.responses = createResponseCache(
      options.responseCache.maxEntries,
      options.responseCache.maxBytes,
    );
  }

  fragment(pos: number): Buffer {
    return this.reviewsBody.subarray(
      this.built.fragmentStarts[pos]!,
      this.built.fragmentEnds[pos]!,
    );
  }

  fragments(): (pos: number) => Buffer {
    const body = this.reviewsBody;
    const { fragmentStarts: starts, fragmentEnds: ends } = this.built;
    return (pos) => body.subarray(starts[pos]!, ends[pos]!);
  }

  private readonly memos = new Map<string, unknown>();

  memo<T>(key: string, make: () => T): T {
    if (!this.memos.has(key)) this.memos.set(key, make());
    return this.memos.get(key) as T;
  }

  private readonly parsedDocs = new Map<string, { rep: PreparedRepresentation; value: unknown }>();

  parsed<T>(path: string): T | null {
    const rep = this.representations.get(path);
    if (!rep) return null;
    let hit = this.parsedDocs.get(path);
    if (hit?.rep !== rep) {
      hit = { rep, value: JSON.parse(rep.body.toString('utf8')) };
      this.parsedDocs.set(path, hit);
    }
    return hit.value as T;
  }

  review(pos: number): Review {
    return JSON.parse(this.fragment(pos).toString('utf8')) as Review;
  }

  /**
   * The codings that followed a document of this version arrive: its representation serves them
   * from now on (its bytes and tag do not change).
   */
  addCodings(id: DocumentId, codings: Codings): void {
    this.representations.get(DOCUMENTS[id].path)?.addCodings(codings);
  }

  /**
   * The same version with another document (the insights, computed after the rest) and, when they
   * came with it, the lists of what each review is about.
   */
  withDocument(
    path: string,
    rep: PreparedRepresentation,
    options: SnapshotOptions,
    aspects?: AspectIndexData,
  ): LiveSnapshot {
    const representations = new Map(this.representations);
    representations.set(path, rep);
    const index = aspects ? new AspectIndex(aspects) : this.aspects;
    return new LiveSnapshot(
      this.built,
      this.index,
      this.reviewsBody,
      representations,
      options,
      index,
    );
  }
}

/** The representation of a built document (codings follow later for large ones). */
export function restoreDocument(doc: BuiltDocument): PreparedRepresentation {
  return restoreRepresentation(doc.parts);
}

/**
 * Opens a built version on the service's thread: wraps its shared buffers (nothing is
 * parsed, hashed or copied), and keeps `carried` documents of the previous version that this one
 * does not have yet (the insights, until they are computed for this version).
 */
export function openSnapshot(
  built: BuiltVersion,
  options: SnapshotOptions,
  carried: ReadonlyMap<string, PreparedRepresentation> = new Map(),
): LiveSnapshot {
  const representations = new Map<string, PreparedRepresentation>(carried);
  for (const doc of built.documents) {
    representations.set(DOCUMENTS[doc.id].path, restoreDocument(doc));
  }
  const reviews = representations.get(DOCUMENTS.reviews.path);
  if (!reviews) throw new Error('a built version without /reviews.json');
  return new LiveSnapshot(
    built,
    new SearchIndex(built.index),
    reviews.body,
    representations,
    options,
  );
}

export type { LiveSnapshot };

/**
 * Builds and opens a snapshot in this thread (tests and tools; the service builds its versions in
 * the build worker), with `insights` as the `/insights.json` body when given, and `aspects` as
 * the lists of what each review is about.
 */
export function buildSnapshot(
  dataset: Dataset,
  options: BuildOptions & SnapshotOptions & { insights?: string; aspects?: AspectIndexData },
): LiveSnapshot {
  const { built } = buildVersion(dataset, options);
  const snapshot = openSnapshot(built, options);
  if (options.insights === undefined) return snapshot;
  const doc = prepareDocument('insights', options.insights, dataset.state, options);
  const rep = restoreDocument(doc);
  return snapshot.withDocument(DOCUMENTS.insights.path, rep, options, options.aspects);
}
