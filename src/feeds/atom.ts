import type { Business } from '../domain/business.js';
import { editedAt } from '../domain/edits.js';
import { reviewUrn } from '../domain/ids.js';
import type { Review } from '../domain/review.js';
import { entryTags, entryText, entryTitle } from './entry-text.js';
import { FEED_SIZE } from './json-feed.js';
import type { ServiceUrls } from '../catalogue.js';

// Characters XML 1.0 does not allow, even escaped: C0 controls (but tab, LF, CR), lone surrogates, U+FFFE/U+FFFF.
const INVALID_XML =
  // eslint-disable-next-line no-control-regex
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** Escapes text for XML character data and attribute values, dropping characters XML forbids. */
export function xmlText(s: string): string {
  return s.replace(INVALID_XML, '').replace(/[&<>"']/g, (c) => {
    switch (c) {
      case '&':
        return '&amp;';
      case '<':
        return '&lt;';
      case '>':
        return '&gt;';
      case '"':
        return '&quot;';
      default:
        return '&apos;';
    }
  });
}

/**
 * An entry's `updated` (required by RFC 4287: the last change the publisher considers
 * significant): the review's edit time when it was edited (domain/edits.ts), else its
 * publication time.
 */
function entryUpdated(r: Review): string {
  return editedAt(r) ?? r.datePublished;
}

function entry(r: Review): string {
  const parts = [
    '<entry>',
    `<id>${reviewUrn(r.id)}</id>`,
    `<title type="text">${xmlText(entryTitle(r))}</title>`,
    `<updated>${entryUpdated(r)}</updated>`,
    `<published>${r.datePublished}</published>`,
    `<author><name>${xmlText(r.author.name)}</name></author>`,
  ];
  if (r.sourceUrl) parts.push(`<link rel="via" href="${xmlText(r.sourceUrl)}"/>`);
  for (const tag of entryTags(r)) parts.push(`<category term="${xmlText(tag)}"/>`);
  let text = entryText(r);
  if (r.ownerResponse) text += `\n\nResponse from the owner:\n${r.ownerResponse.text}`;
  const lang = r.inLanguage ? ` xml:lang="${xmlText(r.inLanguage)}"` : '';
  parts.push(`<content type="text"${lang}>${xmlText(text)}</content>`, '</entry>');
  return parts.join('');
}

/**
 * Renders the Atom feed (RFC 4287) of the newest reviews, with `link rel="self"` and, when the
 * hub runs, `link rel="hub"`. Entry ids are the same `urn:uuid:` ids as the JSON Feed's.
 */
export function renderAtomFeed(
  business: Business | null,
  newest: readonly Review[],
  urls: ServiceUrls,
  feedId: string,
  fallbackUpdated: string,
  hub: boolean,
): string {
  const items = newest.slice(0, FEED_SIZE);
  const updated =
    items.reduce((m, r) => {
      const u = entryUpdated(r);
      return u > m ? u : m;
    }, '') || fallbackUpdated;
  const name = business?.name ?? 'Customer reviews';
  const head = [
    '<?xml version="1.0" encoding="utf-8"?>\n',
    '<feed xmlns="http://www.w3.org/2005/Atom" xml:lang="en">',
    `<id>${feedId}</id>`,
    `<title type="text">${xmlText(business ? `${name}: customer reviews` : name)}</title>`,
    `<subtitle type="text">The ${FEED_SIZE} newest verified customer reviews.</subtitle>`,
    `<updated>${updated}</updated>`,
    `<link rel="self" type="application/atom+xml" href="${xmlText(urls.atomFeed)}"/>`,
  ];
  if (hub) head.push(`<link rel="hub" href="${xmlText(urls.hub)}"/>`);
  head.push(
    `<link rel="alternate" type="text/html" href="${xmlText(business?.url ?? urls.base)}"/>`,
    `<author><name>${xmlText(name)}</name></author>`,
    '<generator>dealer-reviews</generator>',
  );
  return `${head.join('')}${items.map(entry).join('')}</feed>\n`;
}
