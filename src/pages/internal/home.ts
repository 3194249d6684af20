import { FALLBACK_TIME_ZONE } from '../../domain/dates.js';
import type { Issue } from '../../domain/issues.js';
import type { Review } from '../../domain/review.js';
import { normalizeName } from '../../reviews/search-index.js';
import { runSearch } from '../../reviews/search.js';
import type { Snapshot } from '../../snapshot/types.js';
import { PAGE_PATHS } from '../paths.js';
import { FILTER_NAMES, hasFilters, PAGE_SIZE, type FilterName, type PageQuery } from '../query.js';
import { businessCard } from './business-card.js';
import { formatCount, formatDate, formatRating, plural, words } from './format.js';
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

/** The display name of a staff filter value (normalised by the schema): the roster's spelling. */
function staffName(snapshot: Snapshot, value: string): string {
  return snapshot.views.staff.find((s) => normalizeName(s.name) === value)?.name ?? value;
}

function option(value: string, label: string, selected: boolean): Html {
  return html`<option value="${value}" ${selected ? raw(' selected') : ''}>${label}</option>`;
}

function select(id: string, name: string, label: string, options: Html[]): Html {
  return html`<div>
    <label for="${id}">${label}</label
    ><select id="${id}" name="${name}">
      ${option('', 'Any', false)}${options}
    </select>
  </div>`;
}

function filterForm(snapshot: Snapshot, q: PageQuery): Html {
  const ratings = [5, 4, 3, 2, 1].map((n) =>
    option(String(n), `${n} star${n === 1 ? '' : 's'}`, q.rating === n),
  );
  const mins = [4, 3, 2].map((n) => option(String(n), `${n} stars and up`, q.min_rating === n));
  if (q.min_rating !== undefined && ![2, 3, 4].includes(q.min_rating))
    mins.push(option(String(q.min_rating), `${q.min_rating} stars and up`, true));
  const people = snapshot.views.staff
    .filter((s) => s.mentions > 0)
    .map((s) => s.name)
    .sort((a, b) => a.localeCompare(b));
  const staff = people.map((name) =>
    option(name, name, normalizeName(name) === q.mentions_technician),
  );
  if (
    q.mentions_technician !== undefined &&
    !people.some((n) => normalizeName(n) === q.mentions_technician)
  )
    staff.push(option(q.mentions_technician, q.mentions_technician, true));
  const catalogue = snapshot.business?.services ?? [];
  const services = catalogue.map((s) => option(s.id, s.name, s.id === q.mentions_service));
  if (q.mentions_service !== undefined && !catalogue.some((s) => s.id === q.mentions_service))
    services.push(option(q.mentions_service, q.mentions_service, true));
  // Folded away until asked for (no script: a details element), so that on a phone the reviews
  // start on the first screen; open on a filtered view, where the filters are being worked on.
  return html`<details class="card filters-panel"${hasFilters(q) ? raw(' open') : ''}>
    <summary>
      <span id="filters-title">Search and filter reviews</span
      ><span class="hint">Words, stars, dates, staff, service</span>
    </summary>
    <form
      class="filters"
      method="get"
      action="${viewHref({})}"
      role="search"
      aria-labelledby="filters-title"
    >
      <div class="wide">
        <label for="f-query">Words in the review</label
        ><input id="f-query" name="query" type="search" maxlength="200" value="${q.query ?? ''}" />
      </div>
      ${select('f-rating', 'rating', 'Stars', ratings)}${select('f-min', 'min_rating', 'At least', mins)}
      <div>
        <label for="f-since">From</label
        ><input id="f-since" name="since" type="date" value="${q.since ?? ''}" />
      </div>
      <div>
        <label for="f-until">To</label
        ><input id="f-until" name="until" type="date" value="${q.until ?? ''}" />
      </div>
      ${select('f-staff', 'mentions_technician', 'Staff member', staff)}${select('f-service', 'mentions_service', 'Service', services)}
      <div class="actions wide">
        <button type="submit">Show reviews</button
        >${hasFilters(q) ? html`<a href="${PAGE_PATHS.home}">Clear all filters</a>` : ''}
      </div>
    </form>
  </details>`;
}

const FILTER_LABELS: Record<FilterName, string> = {
  rating: 'Stars',
  min_rating: 'At least',
  since: 'From',
  until: 'To',
  query: 'Words',
  mentions_technician: 'Staff',
  mentions_service: 'Service',
};

function filterValue(snapshot: Snapshot, name: FilterName, q: PageQuery): string {
  const v = q[name]!;
  if (name === 'since' || name === 'until') return formatDate(String(v));
  if (name === 'mentions_technician') return staffName(snapshot, String(v));
  if (name === 'mentions_service') {
    const id = String(v);
    return snapshot.business?.services.find((s) => s.id === id)?.name ?? words(id);
  }
  if (name === 'query') return `“${String(v)}”`;
  return `${String(v)} ★`;
}

function chips(snapshot: Snapshot, q: PageQuery): Html {
  const active = FILTER_NAMES.filter((n) => q[n] !== undefined);
  if (active.length === 0) return raw('');
  const values = queryValues(q);
  delete values.page;
  const items = active.map((name) => {
    const rest = { ...values };
    delete rest[name];
    return html`<li>
      <a href="${viewHref(rest)}"
        >${FILTER_LABELS[name]}: ${filterValue(snapshot, name, q)} <span aria-hidden="true">×</span
        ><span class="visually-hidden">(remove this filter)</span></a
      >
    </li>`;
  });
  return html`<ul class="chips" aria-label="Active filters">
    ${items}
  </ul>`;
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
 * the last as a 404 and an ambiguous staff name as the search's 400 (`PageError`).
 */
export function renderHome(site: Site, snapshot: Snapshot, q: PageQuery): string {
  const page = q.page ?? 1;
  const offset = (page - 1) * PAGE_SIZE;
  const { page: _page, ...filters } = q;
  const outcome = runSearch(snapshot.index, { ...filters, limit: offset + PAGE_SIZE });
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
