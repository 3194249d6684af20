import type { ReviewFacts } from '../domain/review.js';
import type { Business } from '../domain/business.js';
import type { PublishedReader } from '../store/index.js';
import {
  prepareDocument,
  readFacts,
  versionBuilder,
  type ReviewsText,
  type BuildOptions,
  type BuiltDocument,
  type BuiltVersion,
} from './build.js';

/**
 * Makes the data versions the publisher publishes. `build` answers with everything but the
 * documents that take longer (the insights), which follow through `onDocument` for the same
 * version, unless a newer build was asked for meanwhile.
 */
export interface Builder {
  build(): Promise<BuiltVersion>;
  onDocument(listener: (version: number, doc: BuiltDocument) => void): void;
  close(): Promise<void>;
}

/** What the insights are computed from. */
export interface InsightsSource {
  reviews: readonly ReviewFacts[];
  business: Business | null;
  changedAt: string;
}

export interface LocalBuilderOptions extends BuildOptions {
  /**
   * Reads the published data in one consistent read, handing it to `reader` in published order
   * (`Store.readPublished`).
   */
  read: (reader: PublishedReader) => Promise<void>;
  /** Runs before each read: the service derives stale records again here. */
  prepare?: () => Promise<unknown>;
  /** Renders `/insights.json`; stops early (throws) when `signal` aborts. */
  insights?: (source: InsightsSource, signal: AbortSignal) => Promise<string>;
  /** Told when a follow-up document could not be made. */
  onError?: (err: unknown) => void;
  /**
   * Runs when version `version` and its follow-up documents are done (the build worker collects
   * garbage, then says so); `signal` aborts when a new build starts meanwhile.
   */
  onIdle?: (version: number, signal: AbortSignal) => void | Promise<void>;
  /**
   * Runs after a version is handed over and `beforeFollowUp` is done, beside the insights (the
   * build worker makes the codings of its large documents here); the version is idle once both
   * are done; `signal` aborts when a new build starts.
   */
  afterBuild?: (built: BuiltVersion, signal: AbortSignal) => void | Promise<void>;
  /**
   * Runs before the follow-up work of a version (`afterBuild` and the insights): the build worker
   * waits here until the service's thread has let the previous version go. The facts of the
   * insights (55 MB at 100,000 reviews) are then not parsed while two versions are held, and the
   * codings do not take the cores while the service's thread takes the version in (its pages
   * rendered and compressed, the previous version collected).
   */
  beforeFollowUp?: (built: BuiltVersion, signal: AbortSignal) => Promise<void>;
}

/**
 * The builder that runs where it is created: in the build worker (the service), or in a test's
 * own thread. A new `build` aborts the follow-up work of the previous one.
 */
export function createLocalBuilder(o: LocalBuilderOptions): Builder {
  const listeners = new Set<(version: number, doc: BuiltDocument) => void>();
  let followUp: AbortController | null = null;
  let pending: Promise<void> = Promise.resolve();

  const follow = async (built: BuiltVersion, text: ReviewsText, signal: AbortSignal) => {
    const { state, business } = built;
    const ready = Promise.resolve().then(() => o.beforeFollowUp?.(built, signal));
    const after = ready.then(() => (signal.aborted ? undefined : o.afterBuild?.(built, signal)));
    try {
      if (!o.insights || signal.aborted) return;
      await ready;
      signal.throwIfAborted();
      // The facts were not kept through the build: they are read again from the version's body.
      const reviews = await readFacts(text, signal);
      const body = await o.insights({ reviews, business, changedAt: state.changedAt }, signal);
      if (signal.aborted) return;
      // The insights are sent with their codings (nothing follows them).
      const doc = prepareDocument('insights', body, state, { ...o, codingsFollow: false });
      for (const listener of listeners) listener(state.version, doc);
    } finally {
      await after.catch((err: unknown) => {
        if (!signal.aborted) o.onError?.(err);
      });
    }
  };

  /** Starts the follow-up work of a version (after the caller has the built version). */
  const schedule = (built: BuiltVersion, text: ReviewsText): AbortController => {
    const { state } = built;
    const controller = new AbortController();
    pending = new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => follow(built, text, controller.signal))
      .catch((err: unknown) => {
        if (!controller.signal.aborted) o.onError?.(err);
      })
      .then(() =>
        controller.signal.aborted ? undefined : o.onIdle?.(state.version, controller.signal),
      );
    return controller;
  };

  return {
    async build() {
      followUp?.abort();
      await pending;
      await o.prepare?.();
      const builder = versionBuilder(o);
      await o.read(builder);
      const { built, text } = builder.finish();
      followUp = schedule(built, text);
      return built;
    },
    onDocument(listener) {
      listeners.add(listener);
    },
    async close() {
      followUp?.abort();
      await pending;
    },
  };
}
