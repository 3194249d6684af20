import { resourceNotFound } from './internal/errors.js';
import type { ServiceUrls } from '../feeds/urls.js';
import type { Snapshot } from '../snapshot/types.js';

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

/** The published documents, as resources whose URIs are their public HTTP URLs. */
export function documentResources(urls: ServiceUrls, snapshot: Snapshot): DocumentResource[] {
  const all: DocumentResource[] = [
    {
      uri: urls.reviews,
      path: '/reviews.json',
      name: 'reviews-dataset',
      title: 'All reviews',
      description: 'The whole dataset: business, aggregate rating and every review, newest first.',
      mimeType: 'application/json',
    },
    {
      uri: urls.jsonFeed,
      path: '/api/feed.json',
      name: 'json-feed',
      title: 'Newest reviews (JSON Feed)',
      description: 'JSON Feed 1.1 of the 50 newest reviews.',
      mimeType: 'application/json',
    },
    {
      uri: urls.atomFeed,
      path: '/feed.xml',
      name: 'atom-feed',
      title: 'Newest reviews (Atom)',
      description: 'Atom feed of the 50 newest reviews.',
      mimeType: 'application/atom+xml',
    },
    {
      uri: `${urls.base}/insights.json`,
      path: '/insights.json',
      name: 'insights',
      title: 'Insights',
      description: 'Aspect-based sentiment insights with evidence quotes.',
      mimeType: 'application/json',
    },
  ];
  return all.filter((r) => snapshot.representations.has(r.path));
}

/** Reads a document resource or one review (`review://{id}`). */
export function readResource(
  uri: string,
  urls: ServiceUrls,
  snapshot: Snapshot,
): { uri: string; mimeType: string; text: string } {
  if (uri.startsWith(REVIEW_PREFIX)) {
    const id = uri.slice(REVIEW_PREFIX.length);
    const pos = snapshot.reviews.findIndex((r) => r.id === id);
    if (pos >= 0) return { uri, mimeType: 'application/json', text: snapshot.fragments[pos]! };
  } else {
    const doc = documentResources(urls, snapshot).find((r) => r.uri === uri);
    const rep = doc && snapshot.representations.get(doc.path);
    if (doc && rep) return { uri, mimeType: doc.mimeType, text: rep.body.toString('utf8') };
  }
  throw resourceNotFound(uri);
}
