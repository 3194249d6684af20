import type { Insights } from '../../../insights/index.js';
import { sentimentBar } from '../charts.js';
import { html, raw, type Html } from '../html.js';
import type { Site } from '../layout.js';
import { quotes, type LanguageOf } from './quotes.js';

/** The questions customers ask, and the note on how the figures come about. */

/** Each question with its answer, the shares behind it and its first three distinct quotes. */
export function faq(doc: Insights, lang: LanguageOf): Html {
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

/** "How this is measured", for shoppers and managers; the method itself is in the JSON. */
export function method(site: Site): Html {
  return html`<section aria-labelledby="method-title">
    <h2 id="method-title">How this is measured</h2>
    <div class="card">
      <p>
        A language model made for car dealership reviews reads every sentence of every written
        review and notes what it is about (the wait, the price, the staff…) and whether it praises
        or criticises it. Each figure counts reviews: a review that speaks well and badly of the
        same thing counts as mixed. Quotes are copied word for word from reviews, and each links to
        its review; a sentence is quoted as praise or complaint only when the model is fairly sure
        of it.
      </p>
      <p>
        The model gets some sentences wrong and misses some mentions, so read the figures as a
        guide, and the reviews themselves for the detail. "Getting better" or "getting worse" is
        said only when the change is too large to be chance.
      </p>
      <p class="muted">
        For developers: the same figures, the method and its measured accuracy as JSON
        (<a href="${site.urls.insights}">insights.json</a>).
      </p>
    </div>
  </section>`;
}
