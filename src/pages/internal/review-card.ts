import { localDate } from '../../domain/dates.js';
import { editedAt } from '../../domain/edits.js';
import type { Review } from '../../domain/review.js';
import { formatDate, formatMoment, formatShortDate, sourceLabel, words } from './format.js';
import { html, raw, type Html } from './html.js';
import { reviewPath } from '../paths.js';
import { servicePath, staffPath } from './links.js';
import { reviewStars } from './stars.js';

/** Lookups the review cards need: service ids to names, and the business's time zone. */
export interface CardContext {
  readonly serviceNames: ReadonlyMap<string, string>;
  /** The IANA zone edit dates are shown in (the one `date` is in). */
  readonly timeZone: string;
}

/** The heading of a review: its title, or who wrote it. */
export function reviewHeading(r: Review): string {
  return r.name ?? `Review by ${r.author.name}`;
}

/**
 * The `lang` attribute of text in a language other than the pages' English (WCAG 3.1.2), or
 * nothing.
 */
export function langAttr(inLanguage: string | null | undefined): Html {
  return inLanguage && !/^en\b/i.test(inLanguage) ? html` lang="${inLanguage}"` : raw('');
}

/**
 * Text as paragraphs: blank lines separate paragraphs, single line breaks become `<br>`. Each
 * piece is escaped.
 */
export function paragraphs(text: string, attrs: Html = raw('')): Html {
  const paras = text
    .split(/\r?\n\s*\n/)
    .map((p) => p.trim())
    .filter((p) => p !== '')
    .map(
      (p) =>
        html`<p>${p.split(/\r?\n/).map((line, i) => (i === 0 ? line : [raw('<br>'), line]))}</p>`,
    );
  return html`<div class="text"${attrs}>${paras}</div>`;
}

function body(r: Review): Html {
  if (r.reviewBody === null) {
    return html`<p class="muted">Rated ${r.reviewRating.ratingValue} out of 5, without a written review.</p>`;
  }
  const translation = r.reviewBodyTranslated
    ? html`<div class="translation"><p class="label">English translation</p>${paragraphs(r.reviewBodyTranslated, raw(' lang="en"'))}</div>`
    : '';
  return html`${paragraphs(r.reviewBody, langAttr(r.inLanguage))}${translation}`;
}

function mentions(r: Review, ctx: CardContext): Html {
  const { technicians, services } = r.mentions;
  if (technicians.length === 0 && services.length === 0) return raw('');
  const staff = technicians.map((t) => html`<a href="${staffPath(t.name)}">${t.name}</a>`);
  const svc = services.map(
    (id) => html`<a href="${servicePath(id)}">${ctx.serviceNames.get(id) ?? words(id)}</a>`,
  );
  return html`<p class="mentions">
    ${
      staff.length ? html`<span>Staff: ${join(staff)}</span>` : ''
    }${svc.length ? html`<span>Services: ${join(svc)}</span>` : ''}
  </p>`;
}

function join(parts: Html[]): Html[] {
  return parts.flatMap((p, i) => (i === 0 ? [p] : [raw(', '), p]));
}

function reply(r: Review): Html {
  if (!r.ownerResponse) return raw('');
  return html`<div class="reply">
    <p class="label">Response from the owner</p>
    ${paragraphs(r.ownerResponse.text)}
  </div>`;
}

/**
 * What the page says about a review's verification (docs/data-model.md): the badge only for the
 * strongest level, a review matched to a service visit or purchase (`transaction-matched`); an
 * ordinary import (`source-confirmed`, the default) shows just the site it came from, which the
 * meta line names; an `unverified` review says so in a neutral label.
 */
function verification(r: Review): Html | '' {
  switch (r.verification.level) {
    case 'transaction-matched':
      return html` <span class="badge verified">Verified customer</span>`;
    case 'unverified':
      return html` <span class="badge plain">Not verified</span>`;
    default:
      return '';
  }
}

/**
 * The discreet mark of an edited review (domain/edits.ts): the word "edited" and the local date of
 * the edit, its exact time in `datetime` and, in words with the zone, in `title`. Nothing for an
 * unedited review.
 */
function editedMark(r: Review, ctx: CardContext): Html | '' {
  const at = editedAt(r);
  if (at === null) return '';
  const day = formatShortDate(localDate(at, ctx.timeZone));
  const title = `Edited on ${formatMoment(at, ctx.timeZone)}`;
  return html` <span class="edited">(edited <time datetime="${at}" title="${title}">${day}</time>)</span>`;
}

/**
 * One review as an `article`: author (the heading; the review's own page has its title), stars,
 * local date (linking to the review's page), the edited mark, source, title, text, the staff and services it mentions (linking to the filtered views)
 * and the owner's reply. `level` is the heading's level on the page.
 */
export function reviewCard(r: Review, ctx: CardContext, level: 1 | 3 = 3): Html {
  const date = html`<time datetime="${r.date}">${formatDate(r.date)}</time>`;
  const heading =
    level === 1 ? html`<h1>${reviewHeading(r)}</h1>` : html`<h3>${r.author.name}</h3>`;
  const title = level === 3 && r.name ? html`<p class="title">${r.name}</p>` : '';
  return html`<article class="card review" id="review-${r.id}" data-review-id="${r.id}">
    <header>
      ${heading}
      <p class="meta top">
        ${reviewStars(r.reviewRating.ratingValue, level === 1 ? 'md' : 'sm')}
        ${
          level === 1
            ? html`${r.author.name} · ${date}`
            : html`<a href="${reviewPath(r.id)}">${date}</a>`
        }${editedMark(r, ctx)}
        · on
        ${sourceLabel(r.source)}${r.department ? html` · ${words(r.department)}` : ''}${verification(r)}
      </p>
    </header>
    ${title}${body(r)}${mentions(r, ctx)}${reply(r)}
  </article>`;
}
