/**
 * One data version's life where it is built (the build worker, or a test's own thread), as an
 * explicit state machine: `building` → `handed-over` (the caller has the version) →
 * `awaiting-release` (a large version waits until the service's thread has let the previous one
 * go) → `following-up` (its codings and its insights, side by side) → `settling` (the worker
 * returns what the build left) → `idle`. A newer build makes the version `superseded` from any
 * of these; a build that throws leaves it `failed`. The service's side of the same life (live,
 * complete, released) is the publisher's (`publisher.ts`).
 */
import { setTimeout as delay } from 'node:timers/promises';
import type { Business } from '../domain/business.js';
import type { ReviewFacts } from '../domain/review.js';
import type { Codings } from '../representation/index.js';
import { makeFollowingCodings } from '../representation/index.js';
import type { PublishedReader } from '../store/index.js';
import type { AspectIndexData } from '../reviews/aspect-index.js';
import {
  prepareDocument,
  readFacts,
  versionBuilder,
  type BuildOptions,
  type BuiltDocument,
  type BuiltVersion,
  type ReviewsText,
} from './build.js';
import type { DocumentId } from '../catalogue.js';

/** What the builder is asked for: the service's first version goes live with its codings. */
export interface BuildRequest {
  /**
   * The service's first version (start-up): it goes live with the codings of its documents up to
   * 4 MiB, so the service is ready with them, and its follow-up work waits for no release (there
   * is no version before it). Every later version goes live before its codings, which follow.
   */
  first: boolean;
}

/** The codings of a document of a version, made after the version went live. */
export interface CodingsEvent {
  version: number;
  id: DocumentId;
  codings: Codings;
}

/**
 * Makes the data versions the publisher publishes. `build` answers with everything but the
 * documents that take longer (the insights), which follow through `onDocument` for the same
 * version, unless a newer build was asked for meanwhile; codings that follow a version come
 * through `onCodings`. `released` says that the service's thread has let the versions before
 * `version` go.
 */
export interface Builder {
  build(request?: BuildRequest): Promise<BuiltVersion>;
  onDocument(listener: DocumentListener): void;
  onCodings?(listener: (event: CodingsEvent) => void): void;
  released?(version: number): void;
  close(): Promise<void>;
}

/** Told of a document that followed a version (the insights, with the lists of its aspects). */
export type DocumentListener = (
  version: number,
  doc: BuiltDocument,
  aspects?: AspectIndexData,
) => void;

/** The insights of a version: the `/insights.json` body and the positions of each aspect. */
export interface InsightsOutput {
  body: string;
  aspects: AspectIndexData;
}

/** What the insights are computed from (`reviews` in published order: the index's positions). */
export interface InsightsSource {
  reviews: readonly ReviewFacts[];
  business: Business | null;
  changedAt: string;
}

export interface VersionLifecycleOptions extends Omit<BuildOptions, 'followCodingsAbove'> {
  /**
   * Reads the published data in one consistent read, handing it to `reader` in published order
   * (`Store.readPublished`).
   */
  read: (reader: PublishedReader) => Promise<void>;
  /** Runs before each read: the service derives stale records again here. */
  prepare?: () => Promise<unknown>;
  /** Renders `/insights.json` and its aspect lists; stops early (throws) when `signal` aborts. */
  insights?: (source: InsightsSource, signal: AbortSignal) => Promise<InsightsOutput>;
  /** Told when a follow-up document could not be made. */
  onError?: (err: unknown) => void;
  /** Told when the codings of a document could not be made (identity is served). */
  onCodingsError?: (err: unknown) => void;
  /**
   * The `settling` step of a version: runs when it and its follow-up work are done (the build
   * worker collects garbage, then says so); `signal` aborts when a new build starts meanwhile.
   */
  onIdle?: (version: number, signal: AbortSignal) => void | Promise<void>;
  /**
   * With `codingsFollow`: the follow-up work of a version whose `/reviews.json` is larger than
   * `aboveBytes` waits for `released` (at most `ms`; `RELEASE_WAIT`).
   */
  releaseWait?: { ms: number; aboveBytes: number };
}

/** Where a version is in its life where it is built. */
export type VersionPhase =
  | 'building'
  | 'handed-over'
  | 'awaiting-release'
  | 'following-up'
  | 'settling'
  | 'idle'
  | 'superseded'
  | 'failed';

/** The transitions of a version's life: from each phase, the phases it may move to. */
const NEXT: Readonly<Record<VersionPhase, readonly VersionPhase[]>> = {
  building: ['handed-over', 'failed'],
  'handed-over': ['awaiting-release', 'superseded'],
  'awaiting-release': ['following-up', 'superseded'],
  'following-up': ['settling', 'superseded'],
  settling: ['idle', 'superseded'],
  idle: [],
  superseded: [],
  failed: [],
};

/** One version in its life: what it is, where it is, and what stops its follow-up work. */
class Version {
  phase: VersionPhase = 'building';
  built: BuiltVersion | null = null;
  text: ReviewsText | null = null;
  readonly follow = new AbortController();
  /** Settles once the version is `idle`, `superseded` or `failed`. */
  done: Promise<void> = Promise.resolve();
  /** Ends `awaiting-release` (the service has let the previous version go). */
  wake: () => void = () => undefined;

  constructor(readonly first: boolean) {}

  /** Moves to `next`, one of the transitions `NEXT` allows. */
  to(next: VersionPhase): void {
    if (!NEXT[this.phase].includes(next)) {
      throw new Error(`a version cannot go from ${this.phase} to ${next}`);
    }
    this.phase = next;
  }

  get number(): number {
    return this.built!.state.version;
  }
}

/**
 * The builder that runs where it is created: in the build worker (the service), or in a test's
 * own thread. A new `build` supersedes the follow-up work of the previous version.
 */
export class VersionLifecycle implements Builder {
  private readonly documents = new Set<DocumentListener>();
  private readonly codings = new Set<(event: CodingsEvent) => void>();
  private latest: Version | null = null;
  /** The newest version the service's thread has let the previous one go for. */
  private releasedUpTo = 0;

  constructor(private readonly o: VersionLifecycleOptions) {}

  /** The phase of the newest version (`null` before the first build). */
  phase(): VersionPhase | null {
    return this.latest?.phase ?? null;
  }

  /** `building` → `handed-over`: reads and builds a version, then schedules its follow-up. */
  async build(request: BuildRequest = { first: false }): Promise<BuiltVersion> {
    const previous = this.latest;
    previous?.follow.abort();
    await previous?.done;
    const version = new Version(request.first);
    this.latest = version;
    try {
      await this.o.prepare?.();
      const reader = versionBuilder({ ...this.o, ...this.codingsOf(version) });
      await this.o.read(reader);
      ({ built: version.built, text: version.text } = reader.finish());
    } catch (err) {
      version.to('failed');
      throw err;
    }
    version.to('handed-over');
    version.done = this.followUp(version).catch((err: unknown) => this.o.onError?.(err));
    return version.built;
  }

  /** The transition out of `awaiting-release`: the service let the versions before this go. */
  released(version: number): void {
    this.releasedUpTo = Math.max(this.releasedUpTo, version);
    const latest = this.latest;
    if (latest?.phase === 'awaiting-release' && this.releasedUpTo >= latest.number) latest.wake();
  }

  onDocument(listener: DocumentListener): void {
    this.documents.add(listener);
  }

  onCodings(listener: (event: CodingsEvent) => void): void {
    this.codings.add(listener);
  }

  async close(): Promise<void> {
    this.latest?.follow.abort();
    await this.latest?.done;
  }

  /** The first version goes live with its codings up to 4 MiB; later ones before all theirs. */
  private codingsOf(version: Version): Pick<BuildOptions, 'followCodingsAbove'> {
    return this.o.codingsFollow && !version.first ? { followCodingsAbove: 0 } : {};
  }

  /** `handed-over` → … → `idle`, or `superseded` as soon as a newer build aborts it. */
  private async followUp(version: Version): Promise<void> {
    const { signal } = version.follow;
    const superseded = (): boolean => {
      if (signal.aborted) version.to('superseded');
      return signal.aborted;
    };
    // A turn later: the caller takes the version in first.
    await new Promise<void>((resolve) => setImmediate(resolve));
    if (superseded()) return;
    version.to('awaiting-release');
    await this.awaitRelease(version);
    if (superseded()) return;
    version.to('following-up');
    const results = await Promise.allSettled([
      this.sendCodings(version),
      this.sendInsights(version),
    ]);
    for (const result of results) {
      if (result.status === 'rejected' && !signal.aborted) this.o.onError?.(result.reason);
    }
    if (superseded()) return;
    version.to('settling');
    await this.o.onIdle?.(version.number, signal);
    if (!superseded()) version.to('idle');
  }

  /**
   * In `awaiting-release`: a version over `releaseWait.aboveBytes` (not the first) waits until the
   * service's thread has let the previous version go (`released`), at most `releaseWait.ms`.
   */
  private async awaitRelease(version: Version): Promise<void> {
    const wait = this.o.releaseWait;
    if (!wait || version.first || this.releasedUpTo >= version.number) return;
    const reviews = version.built!.documents.find((doc) => doc.id === 'reviews');
    if ((reviews?.parts.body.length ?? 0) <= wait.aboveBytes) return;
    const { signal } = version.follow;
    await Promise.race([
      new Promise<void>((resolve) => (version.wake = resolve)),
      delay(wait.ms, undefined, { signal }).catch(() => undefined),
    ]);
  }

  /** In `following-up`: the codings that follow the version, smallest document first. */
  private async sendCodings(version: Version): Promise<void> {
    const { signal } = version.follow;
    const follow = version
      .built!.documents.filter((doc) => doc.parts.codingsFollow)
      .sort((a, b) => a.parts.body.length - b.parts.body.length);
    for (const doc of follow) {
      if (signal.aborted) return;
      let codings: Codings;
      try {
        codings = await makeFollowingCodings(doc.parts.body, signal);
      } catch (err) {
        if (signal.aborted) return;
        // Without codings the identity bytes are served (they are always right).
        this.o.onCodingsError?.(err);
        codings = { gzip: null, br: null };
      }
      const event: CodingsEvent = { version: version.number, id: doc.id, codings };
      for (const listener of this.codings) listener(event);
    }
  }

  /** In `following-up`: the insights, from the facts read again from the version's body. */
  private async sendInsights(version: Version): Promise<void> {
    const { signal } = version.follow;
    if (!this.o.insights || signal.aborted) return;
    const { state, business } = version.built!;
    // In the order of `/reviews.json`, which is the search index's (`fragmentStarts` by position).
    const reviews = await readFacts(version.text!, signal);
    const source = { reviews, business, changedAt: state.changedAt };
    const { body, aspects } = await this.o.insights(source, signal);
    if (signal.aborted) return;
    // The insights are sent with their codings (nothing follows them).
    const doc = prepareDocument('insights', body, state, { ...this.o, codingsFollow: false });
    for (const listener of this.documents) listener(state.version, doc, aspects);
  }
}
