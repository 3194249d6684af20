import { DOCUMENTS, type DocumentId, type ServiceUrls } from '../catalogue.js';
import { computeAggregate, type AggregateRating } from '../domain/aggregate.js';
import type { Business } from '../domain/business.js';
import { feedUrn } from '../domain/ids.js';
import type { Review } from '../domain/review.js';
import { renderAtomFeed } from '../feeds/atom.js';
import { FEED_SIZE, renderJsonFeed } from '../feeds/json-feed.js';
import { partsBuffers, prepareParts, type RepresentationParts } from '../representation/index.js';
import { renderReviewsDocument } from '../reviews/dataset.js';
import { orderReviews } from '../reviews/order.js';
import { buffersOf } from '../reviews/packed.js';
import { buildIndexData, indexBuffers, type IndexData } from '../reviews/search-index.js';
import { computeViews, type Views } from '../reviews/views.js';
import type { Dataset, DataState } from '../store/index.js';

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
 * Builds everything published for one data version but the insights: reviews in published order,
 * their aggregate, the search indexes, the staff and service figures, and the prepared bytes of
 * each document. Runs in the build worker, once per data version; returns the ordered reviews
 * too, for the insights that follow.
 */
export function buildVersion(
  dataset: Dataset,
  options: BuildOptions,
): { built: BuiltVersion; reviews: Review[] } {
  const pairs = orderReviews(dataset.reviews);
  const reviews = pairs.map((p) => p.review);
  const { state, business } = dataset;
  const aggregate = computeAggregate(reviews);
  const document = renderReviewsDocument(
    business,
    aggregate,
    pairs.map((p) => p.json),
  );
  const newest = reviews.slice(0, FEED_SIZE);
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
