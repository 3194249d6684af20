import type { AggregateRating } from '../../../domain/aggregate.js';
import type { Insights, Polarity } from '../../../insights/index.js';
import { sentimentBar } from '../charts.js';
import { formatCount, formatRating, percent, plural } from '../format.js';
import { html, raw, type Html } from '../html.js';
import { quotes, type Evidence, type LanguageOf } from './quotes.js';
import { complaints, list, replyTime, type Aspect } from './words.js';

/** The top of the insights page: the key figures, and the summary in plain words. */

/** The key figures: reviews analysed, average rating, share answered, time to answer. */
export function facts(doc: Insights, aggregate: AggregateRating): Html {
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

/** A strength or weakness of the summary: its aspect and the evidence quoted for it. */
interface Point {
  a: Aspect;
  evidence: Evidence[];
}

/** The summary's points (strengths or weaknesses) whose aspect the document describes. */
function pointsOf(doc: Insights, list: Insights['summary']['strengths']): Point[] {
  const byId = new Map(doc.aspects.map((a) => [a.id, a]));
  return list.flatMap((p) => {
    const a = byId.get(p.aspect);
    return a ? [{ a, evidence: p.evidence }] : [];
  });
}

/** The summary's lines: most praised, most criticised, lately, answers. */
function summaryLines(doc: Insights, strengths: Point[], weaknesses: Point[]): Html[] {
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
        : 'no clear change in the last three months: no topic moved more than chance explains.'
    }</li>`,
  );
  const o = doc.ownerResponses;
  if (o.rate !== null)
    lines.push(
      html`<li><strong>Answers:</strong> the dealership answered ${Math.round(o.rate * 100)}% of
        reviews${o.medianResponseHours === null ? '' : `, typically within ${replyTime(o.medianResponseHours)}`}.</li>`,
    );
  lines.push(
    html`<li><strong>How sure:</strong> a program read the ${plural(doc.reviewCount, 'review')}
      sentence by sentence. It misses some mentions, so the counts are rather too low than too
      high; a topic few reviews mention is only an indication.
      <a href="#method-title">How this is measured</a></li>`,
  );
  return lines;
}

/** The card of the strengths or of the weaknesses, each with its bar and a quote. */
function points(title: string, items: Point[], polarity: Polarity, lang: LanguageOf): Html {
  return items.length === 0
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
}

/**
 * The summary in plain words, from the figures of the document: what customers praise and
 * criticise most, which way things went lately (the detail is under "Recent changes"), how the
 * dealership answers, how sure the figures are (linking to "How this is measured"); then the
 * strengths and weaknesses, each with a quote.
 */
export function summary(doc: Insights, lang: LanguageOf): Html {
  const strengths = pointsOf(doc, doc.summary.strengths);
  const weaknesses = pointsOf(doc, doc.summary.weaknesses);
  const lines = summaryLines(doc, strengths, weaknesses);
  return html`<section aria-labelledby="summary-title">
    <h2 id="summary-title">In short</h2>
    <div class="card summary">
      <ul>
        ${lines}
      </ul>
    </div>
    <div class="grid two">
      ${points('Strengths', strengths, 'positive', lang)}${points('Weaknesses', weaknesses, 'negative', lang)}
    </div>
  </section>`;
}
