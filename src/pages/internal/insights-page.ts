import type { AggregateRating } from '../../domain/aggregate.js';
import type { Business } from '../../domain/business.js';
import type { Insights } from '../../insights/index.js';
import { PAGE_PATHS } from '../paths.js';
import { percent, plural } from './format.js';
import { html, type Html } from './html.js';
import { changes } from './insights/changes.js';
import { faq, method } from './insights/faq.js';
import type { LanguageOf } from './insights/quotes.js';
import { facts, summary } from './insights/summary.js';
import { areasTable, servicesTable, staffTable } from './insights/tables.js';
import { aspects, topics } from './insights/topics.js';
import { monthYear } from './insights/words.js';
import { insightsLd } from './json-ld.js';
import { businessName, sitePage, type Site } from './layout.js';

/** `in June 2026`, `between June 2025 and May 2026`, or nothing: when the reviews were written. */
function periodText(doc: Insights): string {
  return doc.period.from && doc.period.to
    ? monthYear(doc.period.from) === monthYear(doc.period.to)
      ? ` in ${monthYear(doc.period.to)}`
      : ` between ${monthYear(doc.period.from)} and ${monthYear(doc.period.to)}`
    : '';
}

/** The page's `main`: every section, or with no reviews, a word that there are none yet. */
function insightsMain(
  site: Site,
  aggregate: AggregateRating,
  doc: Insights,
  lang: LanguageOf,
  of: string,
): Html {
  const period = periodText(doc);
  return doc.reviewCount === 0
    ? html`<h1>Insights at a glance</h1>
          <div class="card empty">
            <h2>No reviews yet</h2>
            <p>
              As soon as customers' reviews${of} are published, this page shows what they praise
              and what they criticise, topic by topic, in their own words.
            </p>
            <p><a href="${PAGE_PATHS.home}">Go to the reviews</a></p>
          </div>`
    : html`<h1>Insights at a glance</h1>
          <p class="lead">
            What ${plural(doc.reviewCount, 'review')}${of} written${period} say, topic by topic.
            Every quote links to the review it comes from.
          </p>
          ${facts(doc, aggregate)} ${summary(doc, lang)} ${changes(doc)} ${aspects(doc, lang)}
          ${staffTable(doc)}
          ${servicesTable(doc)}
          ${areasTable(doc)}
          ${topics(doc, lang)} ${faq(doc, lang)} ${method(site)}`;
}

/** The page's description: the share of praise, or, with no reviews, what the page will show. */
function describe(doc: Insights, of: string): string {
  const score = percent(
    doc.aspects.reduce((n, a) => n + a.positive, 0),
    doc.aspects.reduce((n, a) => n + a.mentions, 0),
  );
  return doc.reviewCount === 0
    ? `What customers praise and criticise${of}, as soon as their reviews are published.`
    : `What ${plural(doc.reviewCount, 'customer review')} say${of}: ${score}% of what they say about the dealership's service is positive. Strengths, weaknesses, staff, services and trends.`;
}

/**
 * Renders `/insights`: the facts, the summary in plain words with strengths and weaknesses, the
 * recent changes, each topic with its shares as a bar and its monthly trend as a sparkline, staff,
 * services, service areas, other topics, the FAQ and a note on the figures; every quote links to
 * its review's page, in its review's language (`lang`). With no reviews, it says so.
 */
export function renderInsightsPage(
  site: Site,
  business: Business | null,
  aggregate: AggregateRating,
  doc: Insights,
  lang: LanguageOf = () => null,
): string {
  const name = businessName(business);
  const of = business ? ` of ${business.name}` : '';
  const title = `Insights at a glance · ${name}`;
  const description = describe(doc, of);
  return sitePage(
    site,
    business,
    {
      title,
      description,
      path: PAGE_PATHS.insights,
      nav: 'insights',
      jsonLd: insightsLd(site, business, aggregate, {
        title,
        description,
        dateModified: doc.generatedAt,
      }),
    },
    insightsMain(site, aggregate, doc, lang, of),
  );
}
