import { quoteKey, type Insights, type Polarity } from '../../../insights/index.js';
import { reviewPath } from '../../paths.js';
import { html, type Html } from '../html.js';
import { langAttr } from '../review-card.js';

/**
 * The quotes of the insights page: verbatim, each in its review's language, linking to its
 * review's page, each review and each wording once.
 */

export type Evidence = Insights['faq'][number]['evidence'][number];

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
export function quotes(
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
