import { DEALERSHIP_ASPECTS, type ReviewPolarity } from '../../domain/aspects.js';
import { normalizeName } from '../../reviews/search-index.js';
import type { Snapshot } from '../../snapshot/types.js';
import { PAGE_PATHS } from '../paths.js';
import { FILTER_NAMES, hasFilters, type FilterName, type PageQuery } from '../query.js';
import { formatDate, words } from './format.js';
import { html, raw, type Html } from './html.js';
import { queryValues, viewHref } from './links.js';

/**
 * The filter form of `/` and the chips of the filters in use: a field per search filter, in the
 * words of a shopper ("About: wait time", "Said: complaints", "Up to 2 stars").
 */

/** What a review said, in a shopper's words, per polarity (the search's `polarity`). */
const SAID: Readonly<Record<ReviewPolarity, string>> = {
  negative: 'complaints',
  positive: 'praise',
  mixed: 'mixed (praise and complaints)',
  neutral: 'neutral remarks',
};

const ASPECT_NAMES = new Map<string, string>(DEALERSHIP_ASPECTS.map((a) => [a.id, a.name]));

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

/** The star fields: exact, at least, up to (a value the form does not offer is kept). */
function starFields(q: PageQuery): Html {
  const stars = (n: number) => `${n} star${n === 1 ? '' : 's'}`;
  const ratings = [5, 4, 3, 2, 1].map((n) => option(String(n), stars(n), q.rating === n));
  const mins = [4, 3, 2].map((n) => option(String(n), `${n} stars and up`, q.min_rating === n));
  if (q.min_rating !== undefined && ![2, 3, 4].includes(q.min_rating))
    mins.push(option(String(q.min_rating), `${q.min_rating} stars and up`, true));
  const maxes = [1, 2, 3, 4].map((n) => option(String(n), `Up to ${stars(n)}`, q.max_rating === n));
  if (q.max_rating !== undefined && ![1, 2, 3, 4].includes(q.max_rating))
    maxes.push(option(String(q.max_rating), `Up to ${q.max_rating} stars`, true));
  return html`${select('f-rating', 'rating', 'Stars', ratings)}${select('f-min', 'min_rating', 'At least', mins)}${select('f-max', 'max_rating', 'Up to', maxes)}`;
}

/** What the review is about and what it said of it (the insights' analysis of each review). */
function aboutFields(q: PageQuery): Html {
  const aspects = DEALERSHIP_ASPECTS.map((a) => option(a.id, a.name, a.id === q.aspect));
  const said = (Object.keys(SAID) as ReviewPolarity[]).map((p) =>
    option(p, SAID[p], p === q.polarity),
  );
  return html`${select('f-aspect', 'aspect', 'About', aspects)}${select('f-said', 'polarity', 'Said', said)}`;
}

/** The staff and service fields: the names the data mentions (a value it does not is kept). */
function mentionFields(snapshot: Snapshot, q: PageQuery): Html {
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
  return html`${select('f-staff', 'mentions_technician', 'Staff member', staff)}${select('f-service', 'mentions_service', 'Service', services)}`;
}

/** The filter form of `/`, folded away until asked for (open on a filtered view). */
export function filterForm(snapshot: Snapshot, q: PageQuery): Html {
  // Folded away until asked for (no script: a details element), so that on a phone the reviews
  // start on the first screen; open on a filtered view, where the filters are being worked on.
  return html`<details class="card filters-panel"${hasFilters(q) ? raw(' open') : ''}>
    <summary>
      <span id="filters-title">Search and filter reviews</span
      ><span class="hint">Words, stars, dates, topics, staff, service</span>
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
      ${starFields(q)}
      <div>
        <label for="f-since">From</label
        ><input id="f-since" name="since" type="date" value="${q.since ?? ''}" />
      </div>
      <div>
        <label for="f-until">To</label
        ><input id="f-until" name="until" type="date" value="${q.until ?? ''}" />
      </div>
      ${aboutFields(q)}${mentionFields(snapshot, q)}
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
  max_rating: 'Up to',
  since: 'From',
  until: 'To',
  query: 'Words',
  mentions_technician: 'Staff',
  mentions_service: 'Service',
  aspect: 'About',
  polarity: 'Said',
};

function filterValue(snapshot: Snapshot, name: FilterName, q: PageQuery): string {
  const v = q[name]!;
  if (name === 'since' || name === 'until') return formatDate(String(v));
  if (name === 'mentions_technician') return staffName(snapshot, String(v));
  if (name === 'mentions_service') {
    const id = String(v);
    return snapshot.business?.services.find((s) => s.id === id)?.name ?? words(id);
  }
  if (name === 'aspect') return (ASPECT_NAMES.get(String(v)) ?? String(v)).toLowerCase();
  if (name === 'polarity') return SAID[v as ReviewPolarity];
  if (name === 'query') return `“${String(v)}”`;
  return `${String(v)} ★`;
}

/** The filters in use, each a link to the same view without it. */
export function chips(snapshot: Snapshot, q: PageQuery): Html {
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
