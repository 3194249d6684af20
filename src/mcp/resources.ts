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
}

/** The template of one review as a resource. */
export const REVIEW_TEMPLATE = 'review://{id}';
const REVIEW_PREFIX = 'review://';

/**
 * The published documents of the catalogue, as resources whose URIs are their public HTTP URLs
 * (those the snapshot holds).
 */
export function documentResources(urls: ServiceUrls, snapshot: Snapshot): DocumentResource[] {
  return DOCUMENT_IDS.filter((id) => snapshot.representations.has(DOCUMENTS[id].path)).map(
    (id) => ({
      uri: urls[id],
      path: DOCUMENTS[id].path,
      ...DOCUMENTS[id].resource,
      mimeType: DOCUMENTS[id].contentType,
    }),
  );
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
