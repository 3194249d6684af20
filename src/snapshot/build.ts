import { setImmediate } from 'node:timers/promises';
import { DOCUMENTS, type DocumentId, type ServiceUrls } from '../catalogue.js';
import { AggregateBuilder, type AggregateRating } from '../domain/aggregate.js';
import type { Business } from '../domain/business.js';
import { feedUrn } from '../domain/ids.js';
import { FactsReader, type Review, type ReviewFacts } from '../domain/review.js';
import { renderAtomFeed } from '../feeds/atom.js';
import { FEED_SIZE, renderJsonFeed } from '../feeds/json-feed.js';
import { prepareParts, type RepresentationParts } from '../representation/index.js';
import { ReviewsDocumentWriter } from '../reviews/dataset.js';
import { orderReviews } from '../reviews/order.js';
import { CHANGES_CURSOR_HEADER, encodeChangeCursor } from '../reviews/change-cursor.js';
import { ChangeIndexBuilder, type ChangeIndexData } from '../reviews/change-index.js';
import { IndexBuilder, type IndexData } from '../reviews/search-index.js';
import { ViewsBuilder, type Views } from '../reviews/views.js';
import type { Dataset, DataState, PublishedHead, PublishedReader } from '../store/index.js';
import { FACTS_SLICE } from '../platform/version-policy.js';

/**
 * One data version as the build worker makes it: everything the service serves from, in a form
 * that moves to the service's thread without a copy (typed arrays and prepared bytes in shared
 * memory, a few small objects). The insights document follows separately (`prepareDocument`), when it is computed.
 */
export interface BuiltVersion {
  readonly state: DataState;
  readonly business: Business | null;
  readonly aggregate: AggregateRating;
  readonly views: Views;
  readonly index: IndexData;
  /** The change feed as of this version (`GET /api/reviews/changes`). */
  readonly changes: ChangeIndexData;
  /** Where each review's JSON lies in the `/reviews.json` body (published order). */
  readonly fragmentStarts: Uint32Array;
  readonly fragmentEnds: Uint32Array;
  /** Every document of the catalogue but the insights. */
  readonly documents: readonly BuiltDocument[];
}

export interface BuiltDocument {
  readonly id: DocumentId;
  readonly parts: RepresentationParts;
}

export interface BuildOptions {
  urls: ServiceUrls;
  /** Whether the WebSub hub runs (adds hub links to the topics). */
  hub: boolean;
  /**
   * The builder sends the codings of documents over 4 MiB after the version goes live (the build
   * worker): the thread that serves them compresses nothing.
   */
  codingsFollow?: boolean;
  /** With `codingsFollow`: the size above which codings follow (see `PartsOptions.followAbove`). */
  followCodingsAbove?: number;
}

/** The `Link` header of a topic: where its hub is and its own URL, for WebSub discovery. */
function topicHeaders(options: BuildOptions, id: DocumentId): Record<string, string> {
  const { urls, hub } = options;
  return hub && DOCUMENTS[id].topic
    ? { Link: `<${urls.hub}>; rel="hub", <${urls[id]}>; rel="self"` }
    : {};
}

/** Prepares one document of the catalogue for a data version (ETag, and codings up to 4 MiB). */
export function prepareDocument(
  id: DocumentId,
  body: Uint8Array | string,
  state: DataState,
  options: BuildOptions,
  headers: Readonly<Record<string, string>> = {},
): BuiltDocument {
  return {
    id,
    parts: prepareParts(body, {
      contentType: DOCUMENTS[id].contentType,
      lastModifiedMs: Date.parse(state.changedAt),
      headers: { ...topicHeaders(options, id), ...headers },
      ...(options.codingsFollow ? { codingsFollow: true } : {}),
      ...(options.followCodingsAbove !== undefined
        ? { followAbove: options.followCodingsAbove }
        : {}),
    }),
  };
}

/** The epoch of the change feed of a dataset read whole (which has no feed of its own). */
export const DATASET_EPOCH = '0000000000000000';

/**
 * Hands a dataset read whole (`Store.readDataset`) to `reader` in published order, as
 * `Store.readPublished` does (tests and tools); its change feed holds each review once, in
 * published order, in an epoch of its own (`DATASET_EPOCH`).
 */
export function readInOrder(dataset: Dataset, reader: PublishedReader): void {
  const pairs = orderReviews(dataset.reviews);
  let bytes = 0;
  for (const p of pairs) bytes += Buffer.byteLength(p.json);
  const { state, business } = dataset;
  const feed = { epoch: DATASET_EPOCH, lastSeq: pairs.length };
  reader.begin({ state, business, count: pairs.length, bytes, feed });
  pairs.forEach((p, i) => reader.review(p.json, i + 1));
}

/**
 * Where the insights read the facts of each review again once the version is handed over: the
 * `/reviews.json` body and the fragments' offsets (shared memory, still readable in the build
 * worker after the hand-over).
 */
export interface ReviewsText {
  readonly body: Uint8Array;
  readonly starts: Uint32Array;
  readonly ends: Uint32Array;
}

/** What `buildVersion` makes: the version, and what its insights are computed from. */
export interface BuildResult {
  built: BuiltVersion;
  text: ReviewsText;
}

/**
 * The facts of every review of a version (published order), parsed again from its `/reviews.json`
 * body, pausing every few thousand reviews; rejects once `signal` aborts.
 */
export async function readFacts(text: ReviewsText, signal?: AbortSignal): Promise<ReviewFacts[]> {
  const { body, starts, ends } = text;
  const bytes = Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  const out = new Array<ReviewFacts>(starts.length);
  const reader = new FactsReader();
  for (let i = 0; i < starts.length; i++) {
    if (i > 0 && i % FACTS_SLICE === 0) {
      await setImmediate();
      signal?.throwIfAborted();
    }
    out[i] = reader.facts(JSON.parse(bytes.toString('utf8', starts[i], ends[i])) as Review);
  }
  return out;
}

/** Reads one data version (see `versionBuilder`), then `finish` builds it. */
export interface VersionBuilder extends PublishedReader {
  finish(): BuildResult;
}

/** Builds a version from a dataset read whole (tests and tools). */
export function buildVersion(dataset: Dataset, options: BuildOptions): BuildResult {
  const builder = versionBuilder(options);
  readInOrder(dataset, builder);
  return builder.finish();
}

/** What a version's build accumulates while its reviews are read. */
interface Accumulators {
  head: PublishedHead;
  writer: ReviewsDocumentWriter;
  aggregate: AggregateBuilder;
  views: ViewsBuilder;
  index: IndexBuilder;
  changes: ChangeIndexBuilder;
  /** The newest reviews whole, for the feeds. */
  newest: Review[];
}

/**
 * Builds everything published for one data version but the insights, from one ordered read
 * (`Store.readPublished(builder)`, then `finish`): reviews in published order, their aggregate,
 * the search indexes, the staff and service figures, the change feed (`ChangeIndexBuilder`), and
 * the prepared bytes of each document.
 * Each review is parsed once as it is read: its JSON text is written into `/reviews.json`, its
 * facts go into the aggregate, the indexes and the figures, and it is dropped but for the newest
 * (the feeds). No record of every review is held at once: at 100,000 reviews their texts took
 * 127 MB and their facts 85 MB more during the build. Runs in the build worker, once per data
 * version; the insights that follow read the facts again from the body (`readFacts`).
 */
export function versionBuilder(options: BuildOptions): VersionBuilder {
  let acc: Accumulators | null = null;
  return {
    begin(head) {
      acc = {
        head,
        writer: new ReviewsDocumentWriter(head.business, head.count, head.bytes),
        aggregate: new AggregateBuilder(),
        views: new ViewsBuilder(head.business),
        index: new IndexBuilder(head.business, head.count, head.bytes),
        changes: new ChangeIndexBuilder(head.feed, head.count),
        newest: [],
      };
    },
    review(json, seq) {
      const a = acc!;
      a.writer.add(json);
      a.changes.add(seq);
      const review = JSON.parse(json) as Review;
      a.aggregate.add(
        review.reviewRating.ratingValue,
        review.reviewBody !== null,
        review.dateModified,
      );
      a.views.add(review);
      a.index.add(review);
      if (a.newest.length < FEED_SIZE) a.newest.push(review);
    },
    removal(removal) {
      acc!.changes.removal(removal);
    },
    finish() {
      if (!acc) throw new Error('no data version was read');
      return finishVersion(acc, options);
    },
  };
}

function finishVersion(acc: Accumulators, options: BuildOptions): BuildResult {
  const { head, writer, newest } = acc;
  const { state, business } = head;
  const aggregate = acc.aggregate.result();
  const document = writer.finish(aggregate);
  const { urls, hub } = options;
  // Where a mirror that fetched this `/reviews.json` follows the change feed from.
  const cursor = {
    [CHANGES_CURSOR_HEADER]: encodeChangeCursor(head.feed.epoch, head.feed.lastSeq),
  };
  const bodies: [DocumentId, Uint8Array | string][] = [
    ['reviews', document.body],
    ['jsonFeed', renderJsonFeed(business, newest, urls, hub)],
    [
      'atomFeed',
      renderAtomFeed(
        business,
        newest,
        urls,
        feedUrn(business?.id ?? 'default'),
        state.changedAt,
        hub,
      ),
    ],
  ];
  return {
    built: {
      state,
      business,
      aggregate,
      views: acc.views.finish(),
      index: acc.index.finish(),
      changes: acc.changes.finish(),
      fragmentStarts: document.starts,
      fragmentEnds: document.ends,
      documents: bodies.map(([id, body]) =>
        prepareDocument(id, body, state, options, id === 'reviews' ? cursor : {}),
      ),
    },
    text: { body: document.body, starts: document.starts, ends: document.ends },
  };
}
