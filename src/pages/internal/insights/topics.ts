import type { Insights } from '../../../insights/index.js';
import { LEGEND, sentimentBar, sharesText, sparkline } from '../charts.js';
import { formatCount, plural } from '../format.js';
import { html, raw, type Html } from '../html.js';
import { viewHref } from '../links.js';
import { quotes, type LanguageOf } from './quotes.js';
import { list, type Aspect } from './words.js';

/** The topic cards of the insights page: the aspects (with their trends) and the other topics. */

/**
 * Links from an aspect's card to its reviews on `/` (the search's `aspect`, and with
 * `polarity=negative` its complaints): the counts are the search's totals, the same analysis.
 */
function reviewLinks(a: Aspect): Html {
  const about = html`<span class="visually-hidden"> about ${a.name.toLowerCase()}</span>`;
  const complaints =
    a.negative > 0
      ? html` · <a href="${viewHref({ aspect: a.id, polarity: 'negative' })}"
            >Read the ${plural(a.negative, 'complaint')}${about}</a
          >`
      : '';
  return html`<p class="more">
    <a href="${viewHref({ aspect: a.id })}">Read the ${plural(a.mentions, 'review')}${about}</a
    >${complaints}
  </p>`;
}

/** "What customers talk about": a card per aspect mentioned, most mentioned first. */
export function aspects(doc: Insights, lang: LanguageOf): Html {
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
        ${reviewLinks(a)}
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

/** "Other things customers mention": a card per recurring topic. */
export function topics(doc: Insights, lang: LanguageOf): Html {
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
