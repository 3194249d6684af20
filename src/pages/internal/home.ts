import { FALLBACK_TIME_ZONE } from '../../domain/dates.js';
import type { Issue } from '../../domain/issues.js';
import type { Review } from '../../domain/review.js';
import { runSearch } from '../../reviews/search.js';
import type { Snapshot } from '../../snapshot/types.js';
import { PAGE_PATHS } from '../paths.js';
import { hasFilters, PAGE_SIZE, type PageQuery } from '../query.js';
import { businessCard } from './business-card.js';
import { chips, filterForm } from './filter-form.js';
import { formatCount, formatRating, plural } from './format.js';
import { html, raw, type Html } from './html.js';
import { listLd } from './json-ld.js';
import { businessName, sitePage, type Site } from './layout.js';
import { queryValues, REVIEWS_ANCHOR, viewHref, viewPath } from './links.js';
import { invalidQuery, pageNotFound, type PageError } from './page-errors.js';
import { reviewCard, type CardContext } from './review-card.js';

/** Service ids to names, from the business's catalogue, and the zone its dates are shown in. */
export function cardContext(snapshot: Snapshot): CardContext {
  const { business } = snapshot;
  return {
    serviceNames: new Map((business?.services ?? []).map((s) => [s.id, s.name])),
    timeZone: business?.timeZone ?? FALLBACK_TIME_ZONE,
  };
}

/**
 * Newer, "Page n of m", older, on one row even on a phone: the links say "Newer" and "Older" to
 * the eye and "Newer reviews" and "Older reviews" to assistive technology.
 */
function pager(q: PageQuery, page: number, pages: number): Html {
  if (pages <= 1) return raw('');
  const values = queryValues(q);
  const newer =
    page > 1
      ? html`<a rel="prev" href="${viewHref({ ...values, page: page - 1 })}"
          ><span aria-hidden="true">←</span> Newer<span class="visually-hidden"> reviews</span></a
        >`
      : html`<span></span>`;
  const older =
    page < pages
      ? html`<a rel="next" href="${viewHref({ ...values, page: page + 1 })}"
          >Older<span class="visually-hidden"> reviews</span> <span aria-hidden="true">→</span></a
        >`
      : html`<span></span>`;
  return html`<nav class="pager" aria-label="Pages">
    ${newer}<span class="where">Page ${formatCount(page)} of ${formatCount(pages)}</span>${older}
  </nav>`;
}

/**
 * The 400 of a search the index refused: a first name several staff members share, with a link
 * to the reviews of each full name.
 */
function searchError(snapshot: Snapshot, q: PageQuery, issues: Issue[]): PageError {
  const names =
    q.mentions_technician === undefined ? null : snapshot.index.ambiguous(q.mentions_technician);
  // The links carry the staff filter alone: an error page never repeats what was sent.
  return invalidQuery(
    issues,
    (names ?? []).map((name) => ({
      label: name,
      href: viewHref({ mentions_technician: name }),
    })),
  );
}

/**
 * Renders `GET /` for a parsed query: the business, the filter form, the page of matching
 * reviews (the search of `/api/reviews/search`, newest first) and the pager. Throws a page past
 * the last as a 404, an ambiguous staff name as the search's 400 (`PageError`), and a topic
 * filter while the version's insights are computed as the search's 503 (`insights_pending`).
 */
export function renderHome(site: Site, snapshot: Snapshot, q: PageQuery): string {
  const page = q.page ?? 1;
  const offset = (page - 1) * PAGE_SIZE;
  const { page: _page, ...filters } = q;
  const limit = offset + PAGE_SIZE;
  const outcome = runSearch(snapshot.index, { ...filters, limit }, undefined, snapshot.aspects);
  if (!outcome.ok) throw searchError(snapshot, q, outcome.issues);
  const { total } = outcome.hits;
  if (page > 1 && offset >= total) {
    const last = Math.max(1, Math.ceil(total / PAGE_SIZE));
    throw pageNotFound('results', {
      label: last === 1 ? 'Go to the first page' : `Go to the last page (page ${last})`,
      href: viewHref({ ...queryValues(q), page: last }),
    });
  }
  const reviews: Review[] = outcome.hits.positions.slice(offset).map((pos) => snapshot.review(pos));
  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));
  const filtered = hasFilters(q);
  const { business, aggregate } = snapshot;
  const name = businessName(business);
  const ctx = cardContext(snapshot);
  const list =
    reviews.length === 0
      ? html`<div class="card empty">
          <p>No reviews match these filters.</p>
          <p><a href="${PAGE_PATHS.home}">Show all reviews</a></p>
        </div>`
      : html`<ol class="reviews">
          ${reviews.map((r) => html`<li>${reviewCard(r, ctx)}</li>`)}
        </ol>`;
  const shown =
    total === 0
      ? ''
      : `Showing ${formatCount(offset + 1)}–${formatCount(offset + reviews.length)} of ${plural(total, filtered ? 'matching review' : 'review')}, newest first`;
  const main = html`${businessCard(business, aggregate)} ${filterForm(snapshot, q)}
    <section id="${REVIEWS_ANCHOR}" aria-labelledby="reviews-title">
      <div class="result-head">
        <h2 id="reviews-title">${filtered ? 'Matching reviews' : 'Reviews'}</h2>
        <p class="muted">${shown}</p>
      </div>
      ${chips(snapshot, q)} ${list} ${pager(q, page, pages)}
    </section>`;
  const rating =
    aggregate.ratingValue === null
      ? 'No ratings yet'
      : `Rated ${formatRating(aggregate.ratingValue)} out of 5 from ${plural(aggregate.ratingCount, 'rating')}`;
  const title = filtered
    ? `Reviews matching your filters · ${name}`
    : `${name}: customer reviews${page > 1 ? ` (page ${page})` : ''}`;
  return sitePage(
    site,
    business,
    {
      title,
      description: `${rating}. Read what customers say about ${name}, with the owner's replies.`,
      path: viewPath(filtered ? queryValues(q) : { page }),
      noindex: filtered,
      jsonLd: listLd(site, business, aggregate, reviews),
      nav: 'reviews',
    },
    main,
  );
}
