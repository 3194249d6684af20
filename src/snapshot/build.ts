import { DOCUMENTS, type DocumentId, type ServiceUrls } from '../catalogue.js';
import { computeAggregate, type AggregateRating } from '../domain/aggregate.js';
import type { Business } from '../domain/business.js';
import { feedUrn } from '../domain/ids.js';
import { reviewFacts, type Review, type ReviewFacts } from '../domain/review.js';
import { renderAtomFeed } from '../feeds/atom.js';
import { FEED_SIZE, renderJsonFeed } from '../feeds/json-feed.js';
import { partsBuffers, prepareParts, type RepresentationParts } from '../representation/index.js';
import { ReviewsDocumentWriter } from '../reviews/dataset.js';
import { orderReviews } from '../reviews/order.js';
import { buffersOf } from '../reviews/packed.js';
import { buildIndexData, indexBuffers, type IndexData } from '../reviews/search-index.js';
import { computeViews, type Views } from '../reviews/views.js';
import type { Dataset, DataState, PublishedHead, PublishedReader } from '../store/index.js';

/**
 * One data version as the build worker makes it: everything the service serves from, in a form
 * that moves to the service's thread without a copy (typed arrays and prepared bytes, a few small
 * objects). The insights document follows separately (`prepareDocument`), when it is computed.
 */
export interface BuiltVersion {
  readonly state: DataState;
  readonly business: Business | null;
  readonly aggregate: AggregateRating;
  readonly views: Views;
  readonly index: IndexData;
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
): BuiltDocument {
  return {
    id,
    parts: prepareParts(body, {
      contentType: DOCUMENTS[id].contentType,
      lastModifiedMs: Date.parse(state.changedAt),
      headers: topicHeaders(options, id),
      ...(options.codingsFollow ? { codingsFollow: true } : {}),
      ...(options.followCodingsAbove !== undefined
        ? { followAbove: options.followCodingsAbove }
        : {}),
    }),
  };
}

/**
 * Hands a dataset read whole (`Store.readDataset`) to `reader` in published order, as
 * `Store.readPublished` does (tests and tools).
 */
export function readInOrder(dataset: Dataset, reader: PublishedReader): void {
  const pairs = orderReviews(dataset.reviews);
  let bytes = 0;
  for (const p of pairs) bytes += Buffer.byteLength(p.json);
  reader.begin({ state: dataset.state, business: dataset.business, count: pairs.length, bytes });
  for (const p of pairs) reader.review(p.json);
}

/** What `buildVersion` makes: the version, and what its insights are computed from. */
export interface BuildResult {
  built: BuiltVersion;
  /** The reviews in published order (what the insights read of each). */
  reviews: ReviewFacts[];
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

/**
 * Builds everything published for one data version but the insights, from one ordered read
 * (`Store.readPublished(builder)`, then `finish`): reviews in published order, their aggregate,
 * the search indexes, the staff and service figures, and the prepared bytes of each document.
 * Each review's JSON text is written into `/reviews.json` as it is read and then dropped (the
 * texts of 100,000 reviews took 127 MB more at once); of each record only its facts stay
 * (`ReviewFacts`: what the indexes and the insights that follow read), but the newest whole, for
 * the feeds. Runs in the build worker, once per data version.
 */
export function versionBuilder(options: BuildOptions): VersionBuilder {
  let head: PublishedHead | null = null;
  let writer: ReviewsDocumentWriter | null = null;
  const reviews: ReviewFacts[] = [];
  const newest: Review[] = [];
  return {
    begin(h) {
      head = h;
      writer = new ReviewsDocumentWriter(h.business, h.count, h.bytes);
    },
    review(json) {
      writer!.add(json);
      const review = JSON.parse(json) as Review;
      // The feeds render the newest reviews whole; of the others, the facts are kept.
      if (newest.length < FEED_SIZE) {
        newest.push(review);
        reviews.push(review);
      } else reviews.push(reviewFacts(review));
    },
    finish() {
      if (!head || !writer) throw new Error('no data version was read');
      return finishVersion(head, writer, reviews, newest, options);
    },
  };
}

function finishVersion(
  head: PublishedHead,
  writer: ReviewsDocumentWriter,
  reviews: ReviewFacts[],
  newest: Review[],
  options: BuildOptions,
): BuildResult {
  const { state, business } = head;
  const aggregate = computeAggregate(reviews);
  const document = writer.finish(aggregate);
  const { urls, hub } = options;
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
      views: computeViews(business, reviews),
      index: buildIndexData(reviews, business),
      fragmentStarts: document.starts,
      fragmentEnds: document.ends,
      documents: bodies.map(([id, body]) => prepareDocument(id, body, state, options)),
    },
    reviews,
  };
}

/** The buffers of a built version, to transfer it to the service's thread. */
export function builtBuffers(built: BuiltVersion): ArrayBuffer[] {
  return [
    ...new Set([
      ...indexBuffers(built.index),
      ...buffersOf(built.fragmentStarts, built.fragmentEnds),
      ...built.documents.flatMap((d) => partsBuffers(d.parts)),
    ]),
  ];
}
