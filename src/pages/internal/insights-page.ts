import type { Business } from '../../domain/business.js';
import { quoteKey, type Insights } from '../../insights/index.js';
import { LEGEND, sentimentBar, sharesText, sparkline } from './charts.js';
import { formatCount, formatDate, formatRating, percent, plural, words } from './format.js';
import { html, raw, type Html } from './html.js';
import { insightsLd } from './json-ld.js';
import { businessName, sitePage, type Site } from './layout.js';
import { reviewPath, servicePath, staffPath } from './links.js';
import { langAttr } from './review-card.js';
import type { AggregateRating } from '../../domain/aggregate.js';

type Evidence = Insights['faq'][number]['evidence'][number];
type Polarity = 'positive' | 'negative' | 'neutral' | '';

/** The language of a review by its id (`null`: unknown, or not published any more). */
export type LanguageOf = (reviewId: string) => string | null;

/** A verbatim quote, in its review's language, linking to its review's page. */
function quote(e: Evidence, lang: LanguageOf, polarity: Polarity = ''): Html {
  return html`<blockquote${polarity ? html` class="${polarity}"` : ''}><p${langAttr(lang(e.reviewId))}>“${e.quote}”</p><a href="${reviewPath(e.reviewId)}">Read the review</a></blockquote>`;
}

/** The first `max` quotes of a list, each review and each wording once. */
function quotes(
  list: readonly Evidence[],
  lang: LanguageOf,
  polarity: Polarity,
  max: number,
): Html[] {
  const reviews = new Set<string>();
  const wordings = new Set<string>();
  const out: Html[] = [];
  for (const e of list) {
    if (out.length === max) break;
    const key = quoteKey(e.quote);
    if (reviews.has(e.reviewId) || wordings.has(key)) continue;
    reviews.add(e.reviewId);
    wordings.add(key);
    out.push(quote(e, lang, polarity));
  }
  return out;
}

function facts(doc: Insights, aggregate: AggregateRating): Html {
  const o = doc.ownerResponses;
  const items: [string, string][] = [
    ['Reviews analysed', formatCount(doc.reviewCount)],
    [
      'Average rating',
      aggregate.ratingValue === null ? '–' : `${formatRating(aggregate.ratingValue)} / 5`,
    ],
    ['Owner replied to', o.rate === null ? '–' : `${Math.round(o.rate * 100)}%`],
    [
      'Typical reply time',
      o.medianResponseHours === null ? '–' : `${Math.round(o.medianResponseHours)} h`,
    ],
  ];
  return html`<dl class="facts">
    ${items.map(
      ([k, v]) =>
        html`<div>
          <dt>${k}</dt>
          <dd>${v}</dd>
        </div>`,
    )}
  </dl>`;
}

function summary(doc: Insights, lang: LanguageOf): Html {
  const s = doc.summary;
  const points = (
    title: string,
    list: { statement: string; evidence: Evidence[] }[],
    polarity: Polarity,
  ): Html =>
    list.length === 0
      ? raw('')
      : html`<div class="card">
          <h3>${title}</h3>
          ${list.map(
            (p) =>
              html`<div class="point"><p>${p.statement}</p>${quotes(p.evidence, lang, polarity, 1)}</div>`,
          )}
        </div>`;
  return html`<section aria-labelledby="summary-title">
    <h2 id="summary-title">Summary</h2>
    <div class="card"><p>${s.text}</p></div>
    <div class="grid two">
      ${points('Strengths', s.strengths, 'positive')}${points('Weaknesses', s.weaknesses, 'negative')}
    </div>
    ${
      s.recent.length
        ? html`<div class="card">
            <h3>Lately</h3>
            <ul>
              ${s.recent.map((r) => html`<li>${r.statement}</li>`)}
            </ul>
          </div>`
        : ''
    }
  </section>`;
}

function changes(doc: Insights): Html {
  const body =
    doc.changes.length === 0
      ? html`<div class="card"><p>No aspect changed significantly in the last 90 days.</p></div>`
      : doc.changes.map(
          (c) =>
            html`<div class="card change">
              <span class="tag ${c.direction}"
                >${c.direction === 'better' ? 'Better' : 'Worse'}</span
              >
              <p>
                <strong>${c.name}</strong>: complaints went from
                ${Math.round(c.before.negativeShare * 100)}% of
                ${plural(c.before.mentions, 'mention')} (${formatDate(c.before.from)} to
                ${formatDate(c.before.to)}) to ${Math.round(c.recent.negativeShare * 100)}% of
                ${plural(c.recent.mentions, 'mention')} (${formatDate(c.recent.from)} to
                ${formatDate(c.recent.to)}); ${c.test.name}, p = ${c.test.pValue}.
              </p>
            </div>`,
        );
  return html`<section aria-labelledby="changes-title">
    <h2 id="changes-title">Significant changes</h2>
    ${body}
  </section>`;
}

function aspects(doc: Insights, lang: LanguageOf): Html {
  const cards = doc.aspects.map(
    (a) =>
      html`<article class="card">
        <h3>${a.name}</h3>
        <p class="muted">${plural(a.mentions, 'review')} mention it</p>
        ${sentimentBar(a)}
        <p class="shares">${sharesText(a)}</p>
        ${sparkline(a.trend)}${quotes(a.evidence.positive, lang, 'positive', 1)}${quotes(a.evidence.negative, lang, 'negative', 1)}
      </article>`,
  );
  return html`<section aria-labelledby="aspects-title">
    <h2 id="aspects-title">What customers talk about</h2>
    <p class="muted">
      For each topic: how the reviews that mention it speak of it, and month by month the share
      that speak well of it (the dashed line is 50%; a pale dot is a month with only one or two
      mentions).
    </p>
    ${LEGEND}
    <div class="grid">${cards}</div>
  </section>`;
}

interface EntityRow {
  name: string;
  href: string | null;
  extra: string | null;
  mentions: number;
  averageRating: number | null;
  positive: number;
  mixed: number;
  neutral: number;
  negative: number;
}

/**
 * A table of people, services or areas. A role goes under the name rather than in a column of its
 * own, so that the table fits a phone; should it still be wider than the screen, its wrapper is a
 * named region that takes the keyboard focus, so that keyboard users can scroll it.
 */
function entityTable(id: string, title: string, first: string, rows: EntityRow[]): Html {
  if (rows.length === 0) return raw('');
  const body = rows.map(
    (r) =>
      html`<tr>
        <th scope="row">
          ${r.href ? html`<a href="${r.href}">${r.name}</a>` : r.name}${
            r.extra ? html`<span class="sub">${r.extra}</span>` : ''
          }
        </th>
        <td class="num">${formatCount(r.mentions)}</td>
        <td class="num">${r.averageRating === null ? '–' : formatRating(r.averageRating)}</td>
        <td class="bar-cell">${sentimentBar(r)}</td>
      </tr>`,
  );
  return html`<section aria-labelledby="${id}">
    <h2 id="${id}">${title}</h2>
    <div class="table-wrap" role="region" aria-labelledby="${id}" tabindex="0">
      <table>
        <thead>
          <tr>
            <th scope="col">${first}</th>
            <th scope="col" class="num">Reviews</th>
            <th scope="col" class="num">Avg. stars</th>
            <th scope="col">Sentiment</th>
          </tr>
        </thead>
        <tbody>
          ${body}
        </tbody>
      </table>
    </div>
  </section>`;
}

function topics(doc: Insights, lang: LanguageOf): Html {
  if (doc.topics.length === 0) return raw('');
  const cards = doc.topics.map(
    (t) =>
      html`<article class="card">
        <h3>${t.name}</h3>
        <p class="muted">
          ${plural(t.mentions, 'review')}, ${formatCount(t.recentMentions)} lately
        </p>
        ${sentimentBar(t)}
        <p class="shares">${sharesText(t)}</p>
        ${quotes(t.evidence.positive, lang, 'positive', 1)}${quotes(t.evidence.negative, lang, 'negative', 1)}
      </article>`,
  );
  return html`<section aria-labelledby="topics-title">
    <h2 id="topics-title">Recurring topics</h2>
    <div class="grid">${cards}</div>
  </section>`;
}

function faq(doc: Insights, lang: LanguageOf): Html {
  if (doc.faq.length === 0) return raw('');
  const items = doc.faq.map(
    (f) =>
      html`<details>
        <summary>${f.question}</summary>
        <p>${f.answer}</p>
        ${quotes(f.evidence, lang, '', 3)}
      </details>`,
  );
  return html`<section aria-labelledby="faq-title">
    <h2 id="faq-title">Questions customers ask</h2>
    ${items}
  </section>`;
}

/**
 * Renders `/insights`: the facts, the summary, the significant changes, each aspect with its
 * shares as a bar and its monthly trend as a sparkline, staff, services, service areas, topics
 * and the FAQ; every quote links to its review's page.
 */
export function renderInsightsPage(
  site: Site,
  business: Business | null,
  aggregate: AggregateRating,
  doc: Insights,
  lang: LanguageOf = () => null,
): string {
  const name = businessName(business);
  const { technicians, services, serviceAreas } = doc.entities;
  const period =
    doc.period.from && doc.period.to
      ? `from ${formatDate(doc.period.from)} to ${formatDate(doc.period.to)}`
      : '';
  const of = business ? ` of ${business.name}` : '';
  const main =
    doc.reviewCount === 0
      ? html`<h1>Insights at a glance</h1>
          <div class="card empty">
            <h2>No reviews yet</h2>
            <p>
              As soon as customers' reviews${of} are published, this page shows what they praise
              and what they criticise, topic by topic, with their own words.
            </p>
            <p><a href="/">Go to the reviews</a></p>
          </div>`
      : html`<h1>Insights at a glance</h1>
    <p class="muted">
      What ${plural(doc.reviewCount, 'review')}${of} ${period} say, topic by topic. Every
      quote links to its review.
    </p>
    ${facts(doc, aggregate)} ${summary(doc, lang)} ${changes(doc)} ${aspects(doc, lang)}
    ${entityTable(
      'staff-title',
      'Staff',
      'Name and role',
      technicians.map((t) => ({
        ...t,
        href: staffPath(t.name),
        extra: t.role ? words(t.role) : null,
      })),
    )}
    ${entityTable(
      'services-title',
      'Services',
      'Service',
      services.map((s) => ({ ...s, href: servicePath(s.id), extra: null })),
    )}
    ${entityTable(
      'areas-title',
      'Areas of the dealership',
      'Area',
      serviceAreas.map((s) => ({ ...s, href: null, extra: null })),
    )}
    ${topics(doc, lang)} ${faq(doc, lang)}
    <section aria-labelledby="method-title">
      <h2 id="method-title">How this is computed</h2>
      <div class="card">
        <p>${doc.method.description}</p>
        <p class="muted">
          Model ${doc.method.model} ${doc.method.version}. Also as JSON:
          <a href="${site.urls.insights}">insights.json</a>.
        </p>
      </div>
    </section>`;
  const score = percent(
    doc.aspects.reduce((n, a) => n + a.positive, 0),
    doc.aspects.reduce((n, a) => n + a.mentions, 0),
  );
  const title = `Insights at a glance · ${name}`;
  const description =
    doc.reviewCount === 0
      ? `What customers praise and criticise${of}, as soon as their reviews are published.`
      : `What ${plural(doc.reviewCount, 'customer review')} say${of}: ${score}% of aspect mentions are positive. Strengths, weaknesses, staff, services and trends.`;
  return sitePage(
    site,
    business,
    {
      title,
      description,
      path: '/insights',
      nav: 'insights',
      jsonLd: insightsLd(site, business, aggregate, {
        title,
        description,
        dateModified: doc.generatedAt,
      }),
    },
    main,
  );
}
