import { PAGE_PATHS } from '../paths.js';
import { FILTER_NAMES, type PageQuery } from '../query.js';

type Values = Partial<Record<(typeof FILTER_NAMES)[number] | 'page', string | number>>;

/** The path of a view of `/` with these filters (in a fixed order, so one view has one URL). */
export function viewPath(values: Values): string {
  const params = new URLSearchParams();
  for (const name of [...FILTER_NAMES, 'page'] as const) {
    const value = values[name];
    if (value !== undefined && !(name === 'page' && value === 1)) params.set(name, String(value));
  }
  const qs = params.toString();
  return qs ? `${PAGE_PATHS.home}?${qs}` : PAGE_PATHS.home;
}

/** Where the list of reviews starts on `/` (its section's id): links to views go straight there. */
export const REVIEWS_ANCHOR = 'reviews';

/** A link to a view of `/`: its path, scrolled to the list of reviews. */
export function viewHref(values: Values): string {
  return `${viewPath(values)}#${REVIEWS_ANCHOR}`;
}

/** The values of a parsed page query, for `viewPath`. */
export function queryValues(q: PageQuery): Values {
  const out: Values = {};
  for (const name of FILTER_NAMES) if (q[name] !== undefined) out[name] = q[name];
  if (q.page !== undefined) out.page = q.page;
  return out;
}

/** A link to the reviews that mention a staff member. */
export function staffPath(name: string): string {
  return viewHref({ mentions_technician: name });
}

/** A link to the reviews that mention a service. */
export function servicePath(id: string): string {
  return viewHref({ mentions_service: id });
}
