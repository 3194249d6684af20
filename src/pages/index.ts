/** The pages for people (HTML), the embeddable widget, the sitemap: the public surface of `src/pages`. */
export { pageRoutes, ReviewIdParam } from './routes.js';
export type { PagesOptions } from './routes.js';
export { PAGE_MAX, PAGE_SIZE, PageQuery, parsePageQuery } from './query.js';
