import type { Review } from '../../domain/review.js';
import type { Snapshot } from '../../snapshot/types.js';
import { businessCard } from './business-card.js';
import { formatDate, truncate } from './format.js';
import { html } from './html.js';
import { reviewPageLd } from './json-ld.js';
import { businessName, sitePage, type Site } from './layout.js';
import { PAGE_PATHS, reviewPath } from '../paths.js';
import { staffPath } from './links.js';
import { reviewCard, reviewHeading } from './review-card.js';
import { cardContext } from './home.js';

/** Renders a review's own page (`/reviews/{id}`): the review in full, then the business. */
export function renderReviewPage(site: Site, snapshot: Snapshot, r: Review): string {
  const { business, aggregate } = snapshot;
  const name = businessName(business);
  const more = r.mentions.technicians.map(
    (t) => html`<li><a href="${staffPath(t.name)}">More reviews that mention ${t.name}</a></li>`,
  );
  const main = html`<p class="crumbs"><a href="${PAGE_PATHS.home}">← All reviews of ${name}</a></p>
    ${reviewCard(r, cardContext(snapshot), 1)}
    ${
      more.length
        ? html`<ul class="links">
            ${more}
          </ul>`
        : ''
    }
    <h2>About ${name}</h2>
    ${businessCard(business, aggregate, false)}`;
  const excerpt = r.reviewBody ? truncate(r.reviewBody, 150) : 'A rating without a written review.';
  return sitePage(
    site,
    business,
    {
      title: `${reviewHeading(r)} · ${r.reviewRating.ratingValue}★ review of ${name}`,
      description: `${r.reviewRating.ratingValue} out of 5 stars from ${r.author.name}, ${formatDate(r.date)}: ${excerpt}`,
      path: reviewPath(r.id),
      jsonLd: reviewPageLd(site, business, aggregate, r),
    },
    main,
  );
}
