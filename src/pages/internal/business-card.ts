import type { AggregateRating, Star } from '../../domain/aggregate.js';
import type { Business } from '../../domain/business.js';
import { PAGE_PATHS } from '../paths.js';
import { formatCount, formatRating, percent, plural } from './format.js';
import { html, raw, type Html } from './html.js';
import { businessName } from './layout.js';
import { viewHref } from './links.js';
import { stars } from './stars.js';

function address(business: Business | null): Html {
  if (!business) return raw('');
  const a = business.address;
  const line = [a.streetAddress, a.addressLocality, `${a.addressRegion} ${a.postalCode}`.trim()]
    .filter((s) => s.trim() !== '')
    .join(', ');
  return line ? html`<address>${line}</address>` : raw('');
}

/** The rating as a number, stars and counts. */
export function scoreLine(aggregate: AggregateRating, size: 'md' | 'lg' = 'lg'): Html {
  if (aggregate.ratingValue === null) return html`<p class="muted">No ratings yet.</p>`;
  const value = aggregate.ratingValue;
  return html`<div class="score">
    <span class="big">${formatRating(value)}</span>${stars(
      value,
      `Rated ${formatRating(value)} out of 5`,
      size,
    )}<span class="muted"
      >${plural(aggregate.ratingCount, 'rating')} ·
      ${plural(aggregate.reviewCount, 'written review')}</span
    >
  </div>`;
}

function distribution(aggregate: AggregateRating): Html {
  const total = aggregate.ratingCount;
  const rows = (['5', '4', '3', '2', '1'] as Star[]).map((star) => {
    const n = aggregate.distribution[star];
    const share = total === 0 ? 0 : (n / total) * 100;
    return html`<li>
      <a href="${viewHref({ rating: star })}">${star} star${star === '1' ? '' : 's'}</a
      ><svg class="meter" viewBox="0 0 100 8" preserveAspectRatio="none" aria-hidden="true">
        <rect class="track" width="100" height="8" />
        <rect class="fill" width="${share.toFixed(2)}" height="8" /></svg
      ><span class="n"
        >${formatCount(n)}<span class="visually-hidden">
          ratings (${percent(n, total)}%)</span
        ></span
      >
    </li>`;
  });
  return html`<div>
    <h2 class="visually-hidden">Ratings by stars</h2>
    <ul class="dist">
      ${rows}
    </ul>
  </div>`;
}

/** A North American number `+1NPANXXXXXX` as `(NPA) NXX-XXXX`; others as stored. */
function phone(tel: string): string {
  const m = /^\+1(\d{3})(\d{3})(\d{4})$/.exec(tel);
  return m ? `(${m[1]}) ${m[2]}-${m[3]}` : tel;
}

function contact(business: Business | null): Html {
  const items: Html[] = [];
  if (business) items.push(html`<li><a href="${business.url}">Website</a></li>`);
  if (business?.telephone)
    items.push(
      html`<li><a href="tel:${business.telephone}">Call ${phone(business.telephone)}</a></li>`,
    );
  items.push(html`<li><a href="${PAGE_PATHS.insights}">Insights at a glance</a></li>`);
  return html`<ul class="links">
    ${items}
  </ul>`;
}

/**
 * The business at the top of `/`: name (the page's `h1` when `h1`), address, rating with stars
 * and counts, the distribution of stars (each linking to its filtered view) and contacts.
 */
export function businessCard(
  business: Business | null,
  aggregate: AggregateRating,
  h1 = true,
): Html {
  const name = businessName(business);
  return html`<section class="card business" aria-label="${name}">
    <div>
      ${
        h1 ? html`<h1>${name}</h1>` : html`<h2>${name}</h2>`
      }${address(business)}${scoreLine(aggregate)}${contact(business)}
    </div>
    ${distribution(aggregate)}
  </section>`;
}
