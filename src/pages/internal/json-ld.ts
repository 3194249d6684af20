import type { AggregateRating } from '../../domain/aggregate.js';
import type { Business } from '../../domain/business.js';
import { editedAt } from '../../domain/edits.js';
import type { Review } from '../../domain/review.js';
import { businessName, type Site } from './layout.js';
import { reviewHeading } from './review-card.js';
import { PAGE_PATHS, reviewPath } from '../paths.js';

type Ld = Record<string, unknown>;

/** The business as a schema.org `AutoDealer`, with its address and aggregate rating. */
export function businessLd(site: Site, business: Business | null, aggregate: AggregateRating): Ld {
  const ld: Ld = {
    '@type': 'AutoDealer',
    '@id': `${site.urls.base}${PAGE_PATHS.home}#business`,
    name: businessName(business),
    url: business?.url ?? `${site.urls.base}${PAGE_PATHS.home}`,
  };
  if (business) {
    if (business.telephone) ld.telephone = business.telephone;
    ld.address = { '@type': 'PostalAddress', ...business.address };
    if (business.geo) ld.geo = { '@type': 'GeoCoordinates', ...business.geo };
    if (business.brands.length)
      ld.brand = business.brands.map((name) => ({ '@type': 'Brand', name }));
    if (business.sameAs.length) ld.sameAs = business.sameAs;
  }
  if (aggregate.ratingValue !== null) {
    ld.aggregateRating = {
      '@type': 'AggregateRating',
      ratingValue: aggregate.ratingValue,
      bestRating: 5,
      worstRating: 1,
      ratingCount: aggregate.ratingCount,
      reviewCount: aggregate.reviewCount,
    };
  }
  return ld;
}

/**
 * One review as a schema.org `Review` (its page's URL as `@id` and `url`), with `dateModified`
 * when it was edited.
 */
export function reviewLd(site: Site, r: Review, itemReviewed?: Ld): Ld {
  const url = `${site.urls.base}${reviewPath(r.id)}`;
  const ld: Ld = {
    '@type': 'Review',
    '@id': url,
    url,
    name: reviewHeading(r),
    author: { '@type': 'Person', name: r.author.name },
    datePublished: r.date,
    reviewRating: {
      '@type': 'Rating',
      ratingValue: r.reviewRating.ratingValue,
      bestRating: 5,
      worstRating: 1,
    },
  };
  // schema.org CreativeWork: the edit time of an edited review (domain/edits.ts), else nothing.
  const edited = editedAt(r);
  if (edited !== null) ld.dateModified = edited;
  if (itemReviewed) ld.itemReviewed = itemReviewed;
  if (r.reviewBody) ld.reviewBody = r.reviewBody;
  if (r.inLanguage) ld.inLanguage = r.inLanguage;
  return ld;
}

/** The JSON-LD of a page listing reviews: the business with the reviews shown. */
export function listLd(
  site: Site,
  business: Business | null,
  aggregate: AggregateRating,
  reviews: readonly Review[],
): Ld {
  const item = businessLd(site, business, aggregate);
  const ref = { '@type': 'AutoDealer', '@id': item['@id'], name: item.name };
  return {
    '@context': 'https://schema.org',
    ...item,
    review: reviews.map((r) => reviewLd(site, r, ref)),
  };
}

/** The JSON-LD of a review's page: the review, about the business. */
export function reviewPageLd(
  site: Site,
  business: Business | null,
  aggregate: AggregateRating,
  r: Review,
): Ld {
  return {
    '@context': 'https://schema.org',
    ...reviewLd(site, r, businessLd(site, business, aggregate)),
  };
}

/**
 * The JSON-LD of `/insights`: the page, about the business (with its aggregate rating), as of the
 * insights' data version.
 */
export function insightsLd(
  site: Site,
  business: Business | null,
  aggregate: AggregateRating,
  page: { title: string; description: string; dateModified: string },
): Ld {
  const url = `${site.urls.base}${PAGE_PATHS.insights}`;
  return {
    '@context': 'https://schema.org',
    '@type': 'WebPage',
    '@id': url,
    url,
    name: page.title,
    description: page.description,
    dateModified: page.dateModified,
    about: businessLd(site, business, aggregate),
  };
}
