import { setImmediate as nextTurn } from 'node:timers/promises';
import { computeAggregate } from '../domain/aggregate.js';
import { feedUrn } from '../domain/ids.js';
import { renderAtomFeed } from '../feeds/atom.js';
import { FEED_SIZE, renderJsonFeed } from '../feeds/json-feed.js';
import type { ServiceUrls } from '../feeds/urls.js';
import { precompressRepresentation } from '../http/representation.js';
import { renderReviewsDocument } from '../reviews/dataset.js';
import { buildSearchIndex } from '../reviews/search-index.js';
import { orderReviews } from '../reviews/order.js';
import type { Dataset } from '../store/index.js';
import { createResponseCache } from './response-cache.js';
import type { Representation, Snapshot } from './types.js';

export interface BuildOptions {
  urls: ServiceUrls;
  /** Whether the WebSub hub runs (adds hub links to the topics). */
  hub: boolean;
  responseCache: { maxEntries: number; maxBytes: number };
  /** Extra documents built from the snapshot (e.g. `/insights.json`). */
  extraDocuments?: (
    snapshot: Omit<Snapshot, 'representations' | 'responses'>,
  ) => Promise<Record<string, { contentType: string; body: string }>>;
}

const JSON_TYPE = 'application/json';
const ATOM_TYPE = 'application/atom+xml';

function topicHeaders(urls: ServiceUrls, self: string, hub: boolean): Record<string, string> {
  return hub ? { Link: `<${urls.hub}>; rel="hub", <${self}>; rel="self"` } : {};
}

/**
 * Builds everything published for one data version: reviews in published order, their
 * aggregate, search indexes, and the prepared bytes (identity, gzip, brotli, ETag) of each
 * document. Called once per data version, never per request.
 */
export async function buildSnapshot(dataset: Dataset, options: BuildOptions): Promise<Snapshot> {
  const { urls, hub } = options;
  // Between build steps the event loop serves the requests that arrived meanwhile: a build at
  // 100k reviews takes seconds of CPU, and the previous snapshot keeps answering until the swap.
  await nextTurn();
  const pairs = orderReviews(dataset.reviews);
  const reviews = pairs.map((p) => p.review);
  const fragments = pairs.map((p) => p.json);
  await nextTurn();
  const aggregate = computeAggregate(reviews);
  const business = dataset.business;
  await nextTurn();
  const index = buildSearchIndex(reviews, business);
  await nextTurn();
  const base = { state: dataset.state, business, aggregate, reviews, fragments, index };
  const lastModifiedMs = Date.parse(dataset.state.changedAt);
  const newest = reviews.slice(0, FEED_SIZE);
  const documents: Record<
    string,
    { contentType: string; body: string | Buffer; headers?: Record<string, string> }
  > = {
    '/reviews.json': {
      contentType: JSON_TYPE,
      body: renderReviewsDocument(business, aggregate, fragments),
      headers: topicHeaders(urls, urls.reviews, hub),
    },
    '/api/feed.json': {
      contentType: JSON_TYPE,
      body: renderJsonFeed(business, newest, urls, hub),
      headers: topicHeaders(urls, urls.jsonFeed, hub),
    },
    '/feed.xml': {
      contentType: ATOM_TYPE,
      body: renderAtomFeed(
        business,
        newest,
        urls,
        feedUrn(business?.id ?? 'default'),
        dataset.state.changedAt,
        hub,
      ),
      headers: topicHeaders(urls, urls.atomFeed, hub),
    },
  };
  await nextTurn();
  Object.assign(documents, options.extraDocuments ? await options.extraDocuments(base) : {});
  const representations = new Map<string, Representation>();
  await Promise.all(
    Object.entries(documents).map(async ([path, doc]) => {
      representations.set(
        path,
        await precompressRepresentation(doc.body, {
          contentType: doc.contentType,
          lastModifiedMs,
          headers: doc.headers ?? {},
        }),
      );
    }),
  );
  return {
    ...base,
    representations,
    responses: createResponseCache(
      options.responseCache.maxEntries,
      options.responseCache.maxBytes,
    ),
  };
}
