import type { Business } from '../../domain/business.js';
import type { Issue } from '../../domain/issues.js';
import { html } from './html.js';
import { sitePage, type Site } from './layout.js';

const PARAM_LABELS: Record<string, string> = {
  rating: 'Stars',
  min_rating: 'At least',
  since: 'From',
  until: 'To',
  query: 'Words in the review',
  mentions_technician: 'Staff member',
  mentions_service: 'Service',
  page: 'Page',
};

/** The friendly HTML page of an error: what happened and where to go. Never echoes the input. */
export function renderErrorPage(
  site: Site,
  business: Business | null,
  status: 400 | 404 | 503,
  issues: readonly Issue[] = [],
): string {
  const [title, lead] =
    status === 400
      ? ['Some filters could not be used', 'Please check these and try again:']
      : status === 404
        ? [
            'Page not found',
            'There is no page at this address. The review may have been removed, or the link is mistyped.',
          ]
        : ['Not ready yet', 'This page is being prepared. Please try again in a moment.'];
  const items = issues.map((i) => {
    const param = String(i.path[0] ?? '');
    // A name the page does not know is not written back: the message says what is wrong.
    const label = PARAM_LABELS[param] ?? 'A parameter';
    return html`<li><strong>${label}</strong> ${i.message}</li>`;
  });
  const main = html`<div class="card error-page">
    <h1>${title}</h1>
    <p>${lead}</p>
    ${
      items.length
        ? html`<ul>
            ${items}
          </ul>`
        : ''
    }
    <p><a href="/">Go to all reviews</a> · <a href="/insights">Insights at a glance</a></p>
  </div>`;
  return sitePage(site, business, { title, description: title, path: null, noindex: true }, main);
}
