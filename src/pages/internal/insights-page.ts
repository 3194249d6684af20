import type { AggregateRating } from '../../domain/aggregate.js';
import type { Business } from '../../domain/business.js';
import { quoteKey, type Insights, type Polarity } from '../../insights/index.js';
import { LEGEND, sentimentBar, sharesText, sparkline } from './charts.js';
import { formatCount, formatRating, formatShortDate, percent, plural, words } from './format.js';
import { html, raw, type Html } from './html.js';
import { insightsLd } from './json-ld.js';
import { businessName, sitePage, type Site } from './layout.js';
import { PAGE_PATHS, reviewPath } from '../paths.js';
import { servicePath, staffPath } from './links.js';
import { langAttr } from './review-card.js';

type Evidence = Insights['faq'][number]['evidence'][number];
type Aspect = Insights['aspects'][number];
type Change = Insights['changes'][number];

/** The language of a review by its id (`null`: unknown, or not published any more). */
export type LanguageOf = (reviewId: string) => string | null;

/**
 * A verbatim quote, in its review's language, linking to its review's page. A quote of praise or
 * of a complaint (`polarity`) says so in words as well as in colour (styles.ts).
 */
function quote(e: Evidence, lang: LanguageOf, polarity?: Polarity): Html {
  return html`<blockquote${polarity ? html` class="${polarity}"` : ''}><p${langAttr(lang(e.reviewId))}>“${e.quote}”</p><a href="${reviewPath(e.reviewId)}">Read the review</a></blockquote>`;
}

/** The first `max` quotes of a list, each review and each wording once. */
function quotes(
  list: readonly Evidence[],
  lang: LanguageOf,
  polarity: Polarity | undefined,
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

const MONTH_YEAR = new Intl.DateTimeFormat('en-US', {
  timeZone: 'UTC',
  month: 'long',
  year: 'numeric',
});
const monthYear = (date: string) => MONTH_YEAR.format(new Date(`${date}T00:00:00Z`));

/** `Aug 3 – Oct 31, 2026`, or `Aug 3, 2025 – Aug 2, 2026` across years. */
function dateRange(from: string, to: string): string {
  const end = formatShortDate(to);
  if (from.slice(0, 4) !== to.slice(0, 4)) return `${formatShortDate(from)} – ${end}`;
  return `${formatShortDate(from).replace(/, \d{4}$/, '')} – ${end}`;
}

/** A reply time in words: `18 hours`, `3 days`. */
function replyTime(hours: number): string {
  return hours < 36
    ? plural(Math.max(1, Math.round(hours)), 'hour')
    : plural(Math.round(hours / 24), 'day');
}

/** The share of a subject's reviews with a complaint (negative or mixed), in per cent. */
const complaints = (a: Aspect) => percent(a.negative + a.mixed, a.mentions);

/** Names joined in English: `a`, `a and b`, `a, b and c`. */
function list(items: readonly string[]): string {
  return items.length <= 1
    ? (items[0] ?? '')
    : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]!}`;
}

function facts(doc: Insights, aggregate: AggregateRating): Html {
  const o = doc.ownerResponses;
  const items: [string, Html | string][] = [
    ['Reviews analysed', formatCount(doc.reviewCount)],
    [
      'Average rating',
      aggregate.ratingValue === null
        ? '–'
        : html`${formatRating(aggregate.ratingValue)}<span class="of"> out of 5</span>`,
    ],
    ['Reviews answered', o.rate === null ? '–' : `${Math.round(o.rate * 100)}%`],
    [
      'Typical time to answer',
      o.medianResponseHours === null ? '–' : replyTime(o.medianResponseHours),
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

/**
 * The summary in plain words, from the figures of the document: what customers praise and
 * criticise most, which way things went lately (the detail is under "Recent changes"), how the
 * dealership answers; then the strengths and weaknesses, each with a quote.
 */
function summary(doc: Insights, lang: LanguageOf): Html {
  const s = doc.summary;
  const byId = new Map(doc.aspects.map((a) => [a.id, a]));
  const strengths = s.strengths.flatMap((p) => {
    const a = byId.get(p.aspect);
    return a ? [{ a, evidence: p.evidence }] : [];
  });
  const weaknesses = s.weaknesses.flatMap((p) => {
    const a = byId.get(p.aspect);
    return a ? [{ a, evidence: p.evidence }] : [];
  });
  const lines: Html[] = [];
  if (strengths.length)
    lines.push(
      html`<li><strong>Most praised:</strong> ${list(
        strengths.map(
          ({ a }, i) =>
            `${a.name.toLowerCase()} (${percent(a.positive, a.mentions)}% of the ${formatCount(a.mentions)} reviews that mention it${i === 0 ? ' speak well of it' : ''})`,
        ),
      )}.</li>`,
    );
  if (weaknesses.length)
    lines.push(
      html`<li><strong>Most criticised:</strong> ${list(
        weaknesses.map(
          ({ a }, i) =>
            `${a.name.toLowerCase()} (${complaints(a)}% of ${formatCount(a.mentions)}${i === 0 ? ' complain' : ''})`,
        ),
      )}.</li>`,
    );
  const worse = doc.changes.filter((c) => c.direction === 'worse').map((c) => c.name.toLowerCase());
  const better = doc.changes
    .filter((c) => c.direction === 'better')
    .map((c) => c.name.toLowerCase());
  const lately = [
    worse.length ? `more complaints than before about ${list(worse)}` : '',
    better.length ? `fewer complaints about ${list(better)}` : '',
  ].filter((x) => x !== '');
  lines.push(
    html`<li><strong>Lately:</strong> ${
      lately.length
        ? `in the last three months, ${list(lately)} (see recent changes below).`
        : 'no topic has changed noticeably in the last three months.'
    }</li>`,
  );
  const o = doc.ownerResponses;
  if (o.rate !== null)
    lines.push(
      html`<li><strong>Answers:</strong> the dealership answered ${Math.round(o.rate * 100)}% of
        reviews${o.medianResponseHours === null ? '' : `, typically within ${replyTime(o.medianResponseHours)}`}.</li>`,
    );
  const points = (
    title: string,
    items: { a: Aspect; evidence: Evidence[] }[],
    polarity: Polarity,
  ): Html =>
    items.length === 0
      ? raw('')
      : html`<div class="card points ${polarity}">
          <h3>${title}</h3>
          ${items.map(
            ({ a, evidence }) =>
              html`<div class="point">
                <p class="point-head">
                  <strong>${a.name}</strong
                  ><span class="muted"
                    >${
                      polarity === 'positive'
                        ? `${percent(a.positive, a.mentions)}% positive`
                        : `${complaints(a)}% complain`
                    }
                    · ${plural(a.mentions, 'review')}</span
                  >
                </p>
                ${sentimentBar(a)}${quotes(evidence, lang, polarity, 1)}
              </div>`,
          )}
        </div>`;
  return html`<section aria-labelledby="summary-title">
    <h2 id="summary-title">In short</h2>
    <div class="card summary">
      <ul>
        ${lines}
      </ul>
    </div>
    <div class="grid two">
      ${points('Strengths', strengths, 'positive')}${points('Weaknesses', weaknesses, 'negative')}
    </div>
  </section>`;
}

function changeText(c: Change): string {
  const recent = Math.round(c.recent.negativeShare * 100);
  const before = Math.round(c.before.negativeShare * 100);
  return `${recent}% of the ${formatCount(c.recent.mentions)} reviews that mentioned it in the last three months (${dateRange(c.recent.from, c.recent.to)}) complained, against ${before}% of ${formatCount(c.before.mentions)} in the year before.`;
}

function changes(doc: Insights): Html {
  if (doc.changes.length === 0) return raw('');
  return html`<section aria-labelledby="changes-title">
    <h2 id="changes-title">Recent changes</h2>
    ${doc.changes.map(
      (c) =>
        html`<div class="card change">
          <span class="tag ${c.direction}"
            >${c.direction === 'better' ? 'Getting better' : 'Getting worse'}</span
          >
          <p><strong>${c.name}</strong>: ${changeText(c)}</p>
        </div>`,
    )}
    <p class="muted note">
      A topic is listed here only when the difference is too large to be chance (a statistical
      test at the 95% level), with at least ten reviews on each side.
    </p>
  </section>`;
}

function aspects(doc: Insights, lang: LanguageOf): Html {
  const mentioned = doc.aspects
    .filter((a) => a.mentions > 0)
    .sort((a, b) => b.mentions - a.mentions || a.name.localeCompare(b.name));
  const silent = doc.aspects.filter((a) => a.mentions === 0).map((a) => a.name.toLowerCase());
  const cards = mentioned.map(
    (a) =>
      html`<article class="card aspect">
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
    ${silent.length ? html`<p class="muted note">Not mentioned yet: ${list(silent)}.</p>` : ''}
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
          ${plural(t.mentions, 'review')}, ${formatCount(t.recentMentions)} in the last three
          months
        </p>
        ${sentimentBar(t)}
        <p class="shares">${sharesText(t)}</p>
        ${quotes(t.evidence.positive, lang, 'positive', 1)}${quotes(t.evidence.negative, lang, 'negative', 1)}
      </article>`,
  );
  return html`<section aria-labelledby="topics-title">
    <h2 id="topics-title">Other things customers mention</h2>
    <div class="grid">${cards}</div>
  </section>`;
}

/** Each question with its answer, the shares behind it and its first three distinct quotes. */
function faq(doc: Insights, lang: LanguageOf): Html {
  if (doc.faq.length === 0) return raw('');
  const items = doc.faq.map(
    (f) =>
      html`<details>
        <summary>${f.question}</summary>
        <p>${f.answer}</p>
        ${f.basis.reviews > 0 ? sentimentBar(f.basis) : ''}${quotes(f.evidence, lang, undefined, 3)}
      </details>`,
  );
  return html`<section aria-labelledby="faq-title">
    <h2 id="faq-title">Questions customers ask</h2>
    ${items}
  </section>`;
}

/** How the figures come about, for shoppers; the method itself is in the JSON. */
function method(site: Site): Html {
  return html`<section aria-labelledby="method-title">
    <h2 id="method-title">About these figures</h2>
    <div class="card">
      <p>
        A language model made for car dealership reviews reads every sentence of every written
        review and notes what it is about (the wait, the price, the staff…) and whether it praises
        or criticises it. Each figure counts reviews: a review that speaks well and badly of the
        same thing counts as mixed. Quotes are copied word for word from reviews, and each links to
        its review.
      </p>
      <p>
        The model gets some sentences wrong, so read the figures as a guide, and the reviews
        themselves for the detail.
      </p>
      <p class="muted">
        For developers: the same figures, the method and its measured accuracy as JSON
        (<a href="${site.urls.insights}">insights.json</a>).
      </p>
    </div>
  </section>`;
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
  const { technicians, services, serviceAreas } = doc.entities;
  const period =
    doc.period.from && doc.period.to
      ? monthYear(doc.period.from) === monthYear(doc.period.to)
        ? ` in ${monthYear(doc.period.to)}`
        : ` between ${monthYear(doc.period.from)} and ${monthYear(doc.period.to)}`
      : '';
  const main =
    doc.reviewCount === 0
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
          ${topics(doc, lang)} ${faq(doc, lang)} ${method(site)}`;
  const score = percent(
    doc.aspects.reduce((n, a) => n + a.positive, 0),
    doc.aspects.reduce((n, a) => n + a.mentions, 0),
  );
  const title = `Insights at a glance · ${name}`;
  const description =
    doc.reviewCount === 0
      ? `What customers praise and criticise${of}, as soon as their reviews are published.`
      : `What ${plural(doc.reviewCount, 'customer review')} say${of}: ${score}% of what they say about the dealership's service is positive. Strengths, weaknesses, staff, services and trends.`;
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
    main,
  );
}
