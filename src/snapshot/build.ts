import { setImmediate as nextTurn } from 'node:timers/promises';
import { computeAggregate } from '../domain/aggregate.js';
import { feedUrn } from '../domain/ids.js';
import { renderAtomFeed } from '../feeds/atom.js';
import { FEED_SIZE, renderJsonFeed } from '../feeds/json-feed.js';
import { DOCUMENT_IDS, DOCUMENTS, type DocumentId, type ServiceUrls } from '../catalogue.js';
import { precompressRepresentation } from '../representation/index.js';
import { renderReviewsDocument } from '../reviews/dataset.js';
import { buildSearchIndex } from '../reviews/search-index.js';
import { orderReviews } from '../reviews/order.js';
import type { Dataset } from '../store/index.js';
import { createResponseCache } from './response-cache.js';
import type { Representation, Snapshot } from './types.js';

/** The snapshot without its documents: what each document is rendered from. */
export type SnapshotData = Omit<Snapshot, 'representations' | 'responses'>;

export interface BuildOptions {
  urls: ServiceUrls;
  /** Whether the WebSub hub runs (adds hub links to the topics). */
  hub: boolean;
  responseCache: { maxEntries: number; maxBytes: number };
  /** Renders `/insights.json` (the insights engine keeps its analyses between versions). */
  insights: (data: SnapshotData) => Promise<string>;
}

/** The renderer of each document of the catalogue. */
type Renderers = { [Id in DocumentId]: (data: SnapshotData) => Promise<string | Buffer> };

function renderers(options: BuildOptions): Renderers {
  const { urls, hub } = options;
  return {
    reviews: async (d) => renderReviewsDocument(d.business, d.aggregate, d.fragments),
    jsonFeed: async (d) => renderJsonFeed(d.business, d.reviews.slice(0, FEED_SIZE), urls, hub),
    atomFeed: async (d) =>
      renderAtomFeed(
        d.business,
        d.reviews.slice(0, FEED_SIZE),
        urls,
        feedUrn(d.business?.id ?? 'default'),
        d.state.changedAt,
        hub,
      ),
    insights: options.insights,
  };
}

/** The `Link` header of a topic: where its hub is and its own URL, for WebSub discovery. */
function topicHeaders(options: BuildOptions, id: DocumentId): Record<string, string> {
  const { urls, hub } = options;
  return hub && DOCUMENTS[id].topic
    ? { Link: `<${urls.hub}>; rel="hub", <${urls[id]}>; rel="self"` }
    : {};
}

/**
 * Builds everything published for one data version: reviews in published order, their
 * aggregate, search indexes, and the prepared bytes (identity, gzip, brotli, ETag) of each
 * document. Called once per data version, never per request.
 */
export async function buildSnapshot(dataset: Dataset, options: BuildOptions): Promise<Snapshot> {
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
  const data: SnapshotData = {
    state: dataset.state,
    business,
    aggregate,
    reviews,
    fragments,
    index,
  };
  const lastModifiedMs = Date.parse(dataset.state.changedAt);
  const render = renderers(options);
  const bodies: [DocumentId, string | Buffer][] = [];
  for (const id of DOCUMENT_IDS) {
    await nextTurn();
    bodies.push([id, await render[id](data)]);
  }
  // The codings are made in the thread pool, all documents at once.
  const representations = new Map<string, Representation>(
    await Promise.all(
      bodies.map(
        async ([id, body]) =>
          [
            DOCUMENTS[id].path,
            await precompressRepresentation(body, {
              contentType: DOCUMENTS[id].contentType,
              lastModifiedMs,
              headers: topicHeaders(options, id),
            }),
          ] as const,
      ),
    ),
  );
  return {
    ...data,
    representations,
    responses: createResponseCache(
      options.responseCache.maxEntries,
      options.responseCache.maxBytes,
    ),
  };
}
