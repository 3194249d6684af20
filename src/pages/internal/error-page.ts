import type { Business } from '../../domain/business.js';
import type { Issue } from '../../domain/issues.js';
import { QUERY_MAX_LENGTH } from '../../reviews/search-schema.js';
import { PAGE_PATHS } from '../paths.js';
import { PAGE_MAX } from '../query.js';
import { formatCount } from './format.js';
import type { Choice, PageError } from './page-errors.js';
import { html, type Html } from './html.js';
import { sitePage, type Site } from './layout.js';
import { dict, type ReadonlyDict } from '../../platform/dict.js';

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
    case 'max_rating':
      // The range rule (`checkSearchRanges`) is the one issue of `max_rating` about both bounds.
      return /\bbelow\b/.test(issue.message)
        ? { label: 'Stars', text: 'Choose an “Up to” on or above the “At least”.' }
        : { label, text: 'Choose a number of stars from 1 to 5.' };
    case 'aspect':
      return { label, text: 'Choose a topic from the list.' };
    case 'polarity':
      return { label, text: 'Choose what the review said from the list.' };
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
  max_rating: 'Up to',
  since: 'From',
  until: 'To',
  query: 'Words in the review',
  mentions_technician: 'Staff member',
  mentions_service: 'Service',
  aspect: 'About',
  polarity: 'Said',
  page: 'Page',
});

function choiceList(choices: readonly Choice[]): Html {
  return html`<ul class="choices">
    ${choices.map((c) => html`<li><a href="${c.href}">${c.label}</a></li>`)}
  </ul>`;
}

/** The 400's lines: one per filter (a filter wrong in two ways is one thing to fix). */
function problems(issues: readonly Issue[], choices: readonly Choice[] | undefined): Html[] {
  const seen = new Set<string>();
  const items: Html[] = [];
  for (const issue of issues) {
    const { label, text } = explainIssue(issue);
    if (seen.has(label)) continue;
    seen.add(label);
    const links = issue.code === 'ambiguous' && choices?.length ? choiceList(choices) : '';
    items.push(html`<li><strong>${label}</strong> ${text}${links}</li>`);
  }
  return items;
}

function missing(error: PageError): { title: string; body: Html } {
  const what = error.page?.missing ?? 'page';
  const last = error.page?.last;
  if (what === 'results')
    return {
      title: 'No more reviews here',
      body: html`<p>These filters have fewer pages of reviews than that.</p>
            ${last ? html`<p><a href="${last.href}">${last.label}</a></p>` : ''}`,
    };
  if (what === 'review')
    return {
      title: 'Review not found',
      body: html`<p>${REVIEW_GONE}</p>`,
    };
  return {
    title: 'Page not found',
    body: html`<p>There is no page at this address. Please check the link.</p>`,
  };
}

function content(error: PageError): { title: string; body: Html } {
  switch (error.status) {
    case 400:
      return {
        title: 'Some filters could not be used',
        body: html`<p>Please change these and try again:</p>
          <ul class="problems">
            ${problems(error.issues ?? [], error.page?.choices)}
          </ul>`,
      };
    case 404:
      return missing(error);
    case 503:
      return {
        title: 'Not ready yet',
        body: html`<p>This page is being prepared. Please try again in a moment.</p>`,
      };
    default:
      // Not thrown by the pages today: an error of another status says its public message.
      return {
        title: 'This page could not be shown',
        body: html`<p>${error.message}</p>`,
      };
  }
}

/**
 * The friendly HTML page of an error: what happened and where to go, from the error's status,
 * issues and page hint. Never echoes the input.
 */
export function renderErrorPage(site: Site, business: Business | null, error: PageError): string {
  const { title, body } = content(error);
  const main = html`<div class="card error-page">
    <h1>${title}</h1>
    ${body}
    <p class="next"><a href="${PAGE_PATHS.home}">Go to all reviews</a> · <a href="${PAGE_PATHS.insights}">Insights at a glance</a></p>
  </div>`;
  return sitePage(site, business, { title, description: title, path: null, noindex: true }, main);
}
