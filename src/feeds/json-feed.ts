import type { Business } from '../domain/business.js';
import { editedAt } from '../domain/edits.js';
import { reviewUrn } from '../domain/ids.js';
import type { Review } from '../domain/review.js';
import { entryTags, entryText, entryTitle } from './entry-text.js';
import type { ServiceUrls } from '../catalogue.js';

/** How many reviews the feeds hold (the interface fixes it at the 50 newest). */
export const FEED_SIZE = 50;

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function paragraphs(text: string): string {
  return text
    .split(/\n{2,}/)
    .map((p) => `<p>${escapeHtml(p).replace(/\n/g, '<br>')}</p>`)
    .join('');
}

function contentHtml(r: Review): string {
  let html = paragraphs(entryText(r));
  if (r.ownerResponse) {
    html += `<blockquote><p><strong>Response from the owner</strong></p>${paragraphs(r.ownerResponse.text)}</blockquote>`;
  }
  return html;
}

function toItem(r: Review, urls: ServiceUrls): Record<string, unknown> {
  const item: Record<string, unknown> = {
    id: reviewUrn(r.id),
    title: entryTitle(r),
    content_text: entryText(r),
    content_html: contentHtml(r),
    date_published: r.datePublished,
  };
  // JSON Feed 1.1: `date_modified` is optional; only an edited review has one (domain/edits.ts).
  const edited = editedAt(r);
  if (edited !== null) item.date_modified = edited;
  item.authors = [{ name: r.author.name }];
  item.tags = entryTags(r);
  if (r.sourceUrl) item.external_url = r.sourceUrl;
  if (r.inLanguage) item.language = r.inLanguage;
  item._dealer_reviews = {
    about: urls.openapi,
    review: r,
  };
  return item;
}

/**
 * Renders the JSON Feed 1.1 document of the newest reviews. Item ids are `urn:uuid:` + the review
 * id: stable, never reused, independent of BASE_URL. The full review record rides along in the
 * `_dealer_reviews` extension.
 */
export function renderJsonFeed(
  business: Business | null,
  newest: readonly Review[],
  urls: ServiceUrls,
  hubs: boolean,
): string {
  const name = business?.name ?? 'Customer reviews';
  const feed: Record<string, unknown> = {
    version: 'https://jsonfeed.org/version/1.1',
    title: business ? `${name}: customer reviews` : name,
    home_page_url: business?.url ?? urls.base,
    feed_url: urls.jsonFeed,
    description: `The ${FEED_SIZE} newest verified customer reviews${business ? ` of ${name}` : ''}.`,
    authors: [{ name, url: business?.url ?? urls.base }],
    language: 'en',
  };
  if (hubs) feed.hubs = [{ type: 'WebSub', url: urls.hub }];
  feed.items = newest.slice(0, FEED_SIZE).map((r) => toItem(r, urls));
  return JSON.stringify(feed);
}
