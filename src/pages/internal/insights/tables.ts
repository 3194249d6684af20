import type { Insights } from '../../../insights/index.js';
import { sentimentBar } from '../charts.js';
import { formatCount, formatRating, words } from '../format.js';
import { html, raw, type Html } from '../html.js';
import { servicePath, staffPath } from '../links.js';

/** The tables of the insights page: staff, services and areas of the dealership. */

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

/** The staff the reviews name, each linking to the reviews that mention them, role under name. */
export function staffTable(doc: Insights): Html {
  return entityTable(
    'staff-title',
    'Staff',
    'Name and role',
    doc.entities.technicians.map((t) => ({
      ...t,
      href: staffPath(t.name),
      extra: t.role ? words(t.role) : null,
    })),
  );
}

/** The services the reviews mention, each linking to the reviews that mention it. */
export function servicesTable(doc: Insights): Html {
  return entityTable(
    'services-title',
    'Services',
    'Service',
    doc.entities.services.map((s) => ({ ...s, href: servicePath(s.id), extra: null })),
  );
}

/** The areas of the dealership the reviews speak of. */
export function areasTable(doc: Insights): Html {
  return entityTable(
    'areas-title',
    'Areas of the dealership',
    'Area',
    doc.entities.serviceAreas.map((s) => ({ ...s, href: null, extra: null })),
  );
}
