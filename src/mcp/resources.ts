import { DOCUMENT_IDS, DOCUMENTS, type ServiceUrls } from '../catalogue.js';
import type { Snapshot } from '../snapshot/types.js';
import { resourceNotFound, resourceTooLarge } from './internal/errors.js';

export interface DocumentResource {
  uri: string;
  path: string;
  name: string;
  title: string;
  description: string;
  mimeType: string;
  /** Bytes of the document (before any content coding). */
  size: number;
  annotations: { audience: ('user' | 'assistant')[]; priority: number; lastModified: string };
}

/**
 * How useful each document is to a model reading it whole (0 to 1): the insights and the feeds
 * are made to be read; the dataset is better searched with the tools.
 */
const PRIORITY: Record<string, number> = {
  insights: 0.9,
  jsonFeed: 0.6,
  atomFeed: 0.3,
  reviews: 0.2,
};

function megabytes(bytes: number): string {
  return bytes >= 1_048_576
    ? `${(bytes / 1_048_576).toFixed(1)} MB`
    : `${Math.max(1, Math.round(bytes / 1024))} KB`;
}

/** The template of one review as a resource. */
export const REVIEW_TEMPLATE = 'review://{id}';
const REVIEW_PREFIX = 'review://';

/**
 * The published documents of the catalogue, as resources whose URIs are their public HTTP URLs
 * (those the snapshot holds).
 */
export function documentResources(urls: ServiceUrls, snapshot: Snapshot): DocumentResource[] {
  return DOCUMENT_IDS.flatMap((id) => {
    const rep = snapshot.representations.get(DOCUMENTS[id].path);
    if (!rep) return [];
    const size = rep.body.length;
    const tooLarge = size > MAX_RESOURCE_BYTES;
    return [
      {
        uri: urls[id],
        path: DOCUMENTS[id].path,
        ...DOCUMENTS[id].resource,
        description: `${DOCUMENTS[id].resource.description} ${megabytes(size)}${
          tooLarge
            ? `: too large to read over MCP (over ${megabytes(MAX_RESOURCE_BYTES)}); fetch it over HTTP at this URI, or use the tools.`
            : '.'
        }`,
        mimeType: DOCUMENTS[id].contentType,
        size,
        annotations: {
          audience: ['user', 'assistant'],
          priority: tooLarge ? 0 : (PRIORITY[id] ?? 0.5),
          lastModified: new Date(rep.lastModifiedMs).toISOString(),
        },
      },
    ];
  });
}

/**
 * Documents larger than this are not sent over MCP (the whole dataset is 110 MB at 100,000
 * reviews: no agent's context holds it, and encoding it would hold the event loop); the error
 * names the HTTP URL instead.
 */
export const MAX_RESOURCE_BYTES = 4 * 1024 * 1024;

/** Reads a document resource or one review (`review://{id}`). */
export function readResource(
  uri: string,
  urls: ServiceUrls,
  snapshot: Snapshot,
): { uri: string; mimeType: string; text: string } {
  if (uri.startsWith(REVIEW_PREFIX)) {
    const pos = snapshot.index.positionOf(uri.slice(REVIEW_PREFIX.length));
    if (pos >= 0) {
      return { uri, mimeType: 'application/json', text: snapshot.fragment(pos).toString('utf8') };
    }
  } else {
    const doc = documentResources(urls, snapshot).find((r) => r.uri === uri);
    const rep = doc && snapshot.representations.get(doc.path);
    if (doc && rep) {
      if (rep.body.length > MAX_RESOURCE_BYTES) {
        throw resourceTooLarge(uri, rep.body.length, MAX_RESOURCE_BYTES);
      }
      return { uri, mimeType: doc.mimeType, text: rep.body.toString('utf8') };
    }
  }
  throw resourceNotFound(uri);
}
