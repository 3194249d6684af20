import type { z } from 'zod';
import { ReviewsDocument } from './domain/public-schemas.js';
import { Insights } from './insights/index.js';

/**
 * The catalogue of the published documents: every whole document the service prepares once per
 * data version and serves from memory. Each entry says where it is served (path and content
 * type), whether it is a WebSub topic, which MCP resource serves it and how OpenAPI describes it.
 * The snapshot renders one representation per entry; the HTTP routes, the hub's topics, the MCP
 * resources and the OpenAPI document are all derived from this list, so a document is added or
 * renamed in one place.
 */
export interface PublishedDocument {
  readonly path: `/${string}`;
  readonly contentType: string;
  /** A WebSub topic: subscribers get the whole document pushed on every change. */
  readonly topic: boolean;
  /** The MCP resource that serves the same bytes (its URI is the document's public URL). */
  readonly resource: {
    readonly name: string;
    readonly title: string;
    readonly description: string;
  };
  /** The OpenAPI operation: a summary, and the schema of the 200 body (`null`: not JSON). */
  readonly openapi: { readonly summary: string; readonly schema: z.ZodType | null };
}

export const DOCUMENTS = {
  reviews: {
    path: '/reviews.json',
    contentType: 'application/json',
    topic: true,
    resource: {
      name: 'reviews-dataset',
      title: 'All reviews',
      description: 'The whole dataset: business, aggregate rating and every review, newest first.',
    },
    openapi: {
      summary: 'The whole dataset: business, aggregate rating and every review.',
      schema: ReviewsDocument,
    },
  },
  jsonFeed: {
    path: '/api/feed.json',
    contentType: 'application/json',
    topic: true,
    resource: {
      name: 'json-feed',
      title: 'Newest reviews (JSON Feed)',
      description: 'JSON Feed 1.1 of the 50 newest reviews.',
    },
    openapi: { summary: 'JSON Feed 1.1 of the 50 newest reviews.', schema: null },
  },
  atomFeed: {
    path: '/feed.xml',
    contentType: 'application/atom+xml',
    topic: true,
    resource: {
      name: 'atom-feed',
      title: 'Newest reviews (Atom)',
      description: 'Atom feed of the 50 newest reviews.',
    },
    openapi: { summary: 'Atom feed (RFC 4287) of the 50 newest reviews.', schema: null },
  },
  insights: {
    path: '/insights.json',
    contentType: 'application/json',
    topic: false,
    resource: {
      name: 'insights',
      title: 'Insights',
      description: 'Aspect-based sentiment insights with evidence quotes.',
    },
    openapi: {
      summary:
        'Aspect-based sentiment insights: aspects with trends and evidence, staff, services, service areas, recurring topics, FAQ, significant changes, summary, owner responses and the method with its benchmark scores.',
      schema: Insights,
    },
  },
} as const satisfies Record<string, PublishedDocument>;

export type DocumentId = keyof typeof DOCUMENTS;

/** Every document id, in catalogue order. */
export const DOCUMENT_IDS = Object.keys(DOCUMENTS) as DocumentId[];

/** The documents that are WebSub topics. */
export const TOPIC_IDS = DOCUMENT_IDS.filter((id) => DOCUMENTS[id].topic);

/** Paths of the service's other endpoints. */
export const HUB_PATH = '/api/websub/hub';
export const OPENAPI_PATH = '/openapi.json';
export const MCP_PATH = '/mcp';

/** Absolute URLs of the service, all derived from BASE_URL: one per document, and the endpoints. */
export type ServiceUrls = Readonly<
  Record<DocumentId, string> & { base: string; hub: string; openapi: string; mcp: string }
>;

/** Derives every absolute URL the service emits from `baseUrl` (no trailing slash). */
export function serviceUrls(baseUrl: string): ServiceUrls {
  const documents = Object.fromEntries(
    DOCUMENT_IDS.map((id) => [id, `${baseUrl}${DOCUMENTS[id].path}`]),
  ) as Record<DocumentId, string>;
  return Object.freeze({
    ...documents,
    base: baseUrl,
    hub: `${baseUrl}${HUB_PATH}`,
    openapi: `${baseUrl}${OPENAPI_PATH}`,
    mcp: `${baseUrl}${MCP_PATH}`,
  });
}
