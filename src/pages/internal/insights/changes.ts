import type { Insights } from '../../../insights/index.js';
import { formatCount } from '../format.js';
import { html, raw, type Html } from '../html.js';
import { dateRange } from './words.js';

type Change = Insights['changes'][number];

function changeText(c: Change): string {
  const recent = Math.round(c.recent.negativeShare * 100);
  const before = Math.round(c.before.negativeShare * 100);
  return `${recent}% of the ${formatCount(c.recent.mentions)} reviews that mentioned it in the last three months (${dateRange(c.recent.from, c.recent.to)}) complained, against ${before}% of ${formatCount(c.before.mentions)} in the year before.`;
}

/** "Recent changes": the topics whose share of complaints moved, better or worse. */
export function changes(doc: Insights): Html {
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
      A topic is listed here only when at least 20 reviews mention it on each side and the
      difference is too large to be chance, even counting every topic that was checked (a
      statistical test at the 95% level).
    </p>
  </section>`;
}
