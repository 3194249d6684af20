import type { Business } from '../../domain/business.js';
import type { Issue } from '../../domain/issues.js';
import { QUERY_MAX_LENGTH } from '../../reviews/search-schema.js';
import { PAGE_PATHS } from '../paths.js';
import { PAGE_MAX } from '../query.js';
import { formatCount } from './format.js';
import { html, type Html } from './html.js';
import { sitePage, type Site } from './layout.js';
import { dict, type ReadonlyDict } from '../../platform/dict.js';

/** A link the error page offers (a staff member's full name, the last page). */
export interface Choice {
  label: string;
  href: string;
}

/** What went wrong, as the error page tells it. */
export type ErrorDetail =
  | { status: 400; issues: readonly Issue[]; choices?: readonly Choice[] }
  /** `page`: no page at this address; `review`: no such review; `results`: past the last page. */
  | { status: 404; what: 'page' | 'review' | 'results'; last?: Choice }
  | { status: 503 };

const REVIEW_GONE =
  'This review is not here: the link may be mistyped, or the review is no longer published.';
const DATE = 'Enter a real date, written year-month-day (2025-06-30).';

/**
 * A problem with one filter in the words of the form: its label and what to do. Never the
 * validation library's wording, never a parameter's name, never the value sent.
 */
export function explainIssue(issue: Issue): { label: string; text: string } {
  const param = String(issue.path[0] ?? '');
  const label = LABELS[param];
  if (issue.code === 'unrecognized_keys' || label === undefined)
    return {
      label: 'The address',
      text: 'holds a setting this page does not use. Start again from all reviews.',
    };
  if (issue.code === 'duplicate_parameter')
    return { label, text: 'was given more than once. Choose one.' };
  switch (param) {
    case 'rating':
      return { label, text: 'Choose a whole number of stars from 1 to 5.' };
    case 'min_rating':
      return { label, text: 'Choose a number of stars from 1 to 5.' };
    case 'since':
      // The date-range rule (`checkDateRange`) is the one issue of `since` about both dates.
      return /\bafter\b/.test(issue.message)
        ? { label: 'Dates', text: 'Choose a “From” date on or before the “To” date.' }
        : { label, text: DATE };
    case 'until':
      return { label, text: DATE };
    case 'query':
      return issue.code === 'too_big'
        ? { label, text: `Use at most ${QUERY_MAX_LENGTH} characters.` }
        : { label, text: 'Use letters, numbers and punctuation only.' };
    case 'mentions_technician':
      return issue.code === 'ambiguous'
        ? { label, text: 'Several staff members have this first name. Choose one:' }
        : { label, text: 'Choose a staff member from the list.' };
    case 'mentions_service':
      return { label, text: 'Choose a service from the list.' };
    case 'page':
      return { label, text: `Pages are numbered from 1 to ${formatCount(PAGE_MAX)}.` };
    default:
      return { label, text: 'could not be used.' };
  }
}

/** The form's labels of the query's parameters. */
const LABELS: ReadonlyDict<string> = dict({
  rating: 'Stars',
  min_rating: 'At least',
  since: 'From',
  until: 'To',
  query: 'Words in the review',
  mentions_technician: 'Staff member',
  mentions_service: 'Service',
  page: 'Page',
});

function choiceList(choices: readonly Choice[]): Html {
  return html`<ul class="choices">
    ${choices.map((c) => html`<li><a href="${c.href}">${c.label}</a></li>`)}
  </ul>`;
}

function content(detail: ErrorDetail): { title: string; body: Html } {
  switch (detail.status) {
    case 400: {
      // One line per filter (a filter wrong in two ways is one thing to fix).
      const seen = new Set<string>();
      const items: Html[] = [];
      for (const issue of detail.issues) {
        const { label, text } = explainIssue(issue);
        if (seen.has(label)) continue;
        seen.add(label);
        const choices =
          issue.code === 'ambiguous' && detail.choices?.length ? choiceList(detail.choices) : '';
        items.push(html`<li><strong>${label}</strong> ${text}${choices}</li>`);
      }
      return {
        title: 'Some filters could not be used',
        body: html`<p>Please change these and try again:</p>
          <ul class="problems">
            ${items}
          </ul>`,
      };
    }
    case 404:
      if (detail.what === 'results')
        return {
          title: 'No more reviews here',
          body: html`<p>These filters have fewer pages of reviews than that.</p>
            ${detail.last ? html`<p><a href="${detail.last.href}">${detail.last.label}</a></p>` : ''}`,
        };
      if (detail.what === 'review')
        return {
          title: 'Review not found',
          body: html`<p>${REVIEW_GONE}</p>`,
        };
      return {
        title: 'Page not found',
        body: html`<p>There is no page at this address. Please check the link.</p>`,
      };
    case 503:
      return {
        title: 'Not ready yet',
        body: html`<p>This page is being prepared. Please try again in a moment.</p>`,
      };
  }
}

/** The friendly HTML page of an error: what happened and where to go. Never echoes the input. */
export function renderErrorPage(
  site: Site,
  business: Business | null,
  detail: ErrorDetail,
): string {
  const { title, body } = content(detail);
  const main = html`<div class="card error-page">
    <h1>${title}</h1>
    ${body}
    <p class="next"><a href="${PAGE_PATHS.home}">Go to all reviews</a> · <a href="${PAGE_PATHS.insights}">Insights at a glance</a></p>
  </div>`;
  return sitePage(site, business, { title, description: title, path: null, noindex: true }, main);
}
