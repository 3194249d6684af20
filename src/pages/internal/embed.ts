import type { Review } from '../../domain/review.js';
import type { Snapshot } from '../../snapshot/types.js';
import { scoreLine } from './business-card.js';
import { formatDate, truncate } from './format.js';
import { html } from './html.js';
import { businessName, embedPage, type Site } from './layout.js';
import { reviewPath } from './links.js';
import { reviewStars } from './stars.js';

/** Written reviews the badge shows. */
export const EMBED_REVIEWS = 3;

/** The newest reviews with text (the badge quotes people, not bare ratings). */
function latest(snapshot: Snapshot, count: number): Review[] {
  const out: Review[] = [];
  for (let pos = 0; pos < snapshot.index.size && out.length < count; pos++) {
    if (snapshot.index.hasText(pos)) out.push(snapshot.review(pos));
  }
  return out;
}

/**
 * Renders `/embed`: a compact badge for an iframe (about 360 by 440 pixels): the rating with
 * stars and counts and the newest written reviews, each linking to its page on the service
 * (in a new tab, out of the frame).
 */
export function renderEmbed(site: Site, snapshot: Snapshot): string {
  const { business, aggregate } = snapshot;
  const name = businessName(business);
  const base = site.urls.base;
  const items = latest(snapshot, EMBED_REVIEWS).map(
    (r) =>
      html`<li>
        ${reviewStars(r.reviewRating.ratingValue)}
        <a href="${base}${reviewPath(r.id)}" target="_blank" rel="noopener">${r.author.name}</a>,
        <time class="muted" datetime="${r.date}">${formatDate(r.date)}</time>
        <p>${truncate(r.reviewBody ?? '', 140)}</p>
      </li>`,
  );
  const main = html`<div class="embed-card">
    <h1>${name}: customer reviews</h1>
    ${scoreLine(aggregate, 'md')}
    <ul>
      ${items}
    </ul>
    <a class="more" href="${base}/" target="_blank" rel="noopener"
      >Read all ${aggregate.ratingCount.toLocaleString('en-US')} reviews</a
    >
  </div>`;
  return embedPage(
    site,
    business,
    {
      title: `${name}: customer reviews`,
      description: `Rating and newest reviews of ${name}.`,
      path: '/embed',
    },
    main,
  );
}
