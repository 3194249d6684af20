import type { Review } from '../../domain/review.js';
import type { Snapshot } from '../../snapshot/types.js';
import { formatRating, formatShortDate, plural, truncate } from './format.js';
import { html } from './html.js';
import { businessName, embedPage, type Site } from './layout.js';
import { PAGE_PATHS, reviewPath } from '../paths.js';
import { langAttr } from './review-card.js';
import { reviewStars, stars } from './stars.js';

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

/** The frame the widget is laid out for (the snippet of docs/pages.md), in CSS pixels. */
export const EMBED_FRAME = { width: 380, height: 460 } as const;

/**
 * Renders `/embed`: a compact badge for an iframe of EMBED_FRAME's size (it narrows down to 300
 * pixels): the rating with stars and the count, and the newest written reviews, each on one line
 * of stars, author and date and at most three lines of text, each linking to its page on the
 * service (in a new tab, out of the frame). The card never grows taller than the frame: the list
 * gives way, so "Read all" always shows (styles.ts, `.embed-card`).
 */
export function renderEmbed(site: Site, snapshot: Snapshot): string {
  const { business, aggregate } = snapshot;
  const name = businessName(business);
  const base = site.urls.base;
  const items = latest(snapshot, EMBED_REVIEWS).map(
    (r) =>
      html`<li>
        <p class="who">
          ${reviewStars(r.reviewRating.ratingValue)}<a
            href="${base}${reviewPath(r.id)}"
            target="_blank"
            rel="noopener"
            >${r.author.name}</a
          ><time datetime="${r.date}">${formatShortDate(r.date)}</time>
        </p>
        <p class="excerpt"${langAttr(r.inLanguage)}>${truncate(r.reviewBody ?? '', 220)}</p>
      </li>`,
  );
  const value = aggregate.ratingValue;
  const score =
    value === null
      ? html`<p class="muted">No ratings yet.</p>`
      : html`<p class="embed-score">
          <span class="big">${formatRating(value)}</span>${stars(
            value,
            `Rated ${formatRating(value)} out of 5`,
            'md',
          )}<span class="muted">${plural(aggregate.ratingCount, 'rating')}</span>
        </p>`;
  const main = html`<main class="embed-card">
    <h1>${name}</h1>
    ${score}
    <ul>
      ${items}
    </ul>
    <a class="more" href="${base}${PAGE_PATHS.home}" target="_blank" rel="noopener"
      >Read all ${plural(aggregate.ratingCount, 'review')} <span aria-hidden="true">→</span></a
    >
  </main>`;
  return embedPage(
    site,
    business,
    {
      title: `${name}: customer reviews`,
      description: `Rating and newest reviews of ${name}.`,
      path: PAGE_PATHS.embed,
    },
    main,
  );
}
